"""Hypothesis settings profiles registered by the refold plugin.

    dev       fast feedback while writing a target (failures shrunk for 5 s, not 20)
    ci        derandomized, no example database: the release gate (`CI=true` selects it)
    nightly   ten times the ci examples, randomized, for the nightly job
    mutation  derandomized, few examples, no database, no shrinking: one run per mutant
              must be cheap, and its verdict needs a failure, not a minimal one

Select one with `--hypothesis-profile NAME`. Registered at import time because
Hypothesis loads the chosen profile in its own `pytest_configure`. A gate run (with a
baseline, or writing one) loads its profile with fixed draws (`load_gate_profile`): the same
examples every time, whatever the profile's example budget.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings
from hypothesis import __version__ as hypothesis_version
from hypothesis.errors import InvalidArgument

from refold import __version__

from ..errors import UsageError

__all__ = [
    "CI_EXAMPLES",
    "DEFAULT_SHRINK_SECONDS",
    "DEV_SHRINK_SECONDS",
    "default_shrink_seconds",
    "limit_shrinking",
    "limit_shrinking_to_option",
    "load_gate_profile",
    "register_profiles",
    "relax_default_deadline",
]

CI_EXAMPLES = 100

DEFAULT_SHRINK_SECONDS = 20.0
"""How long a refold run shrinks each failing example unless `--shrink-seconds` is given
(Hypothesis's own cap is 300 s; see `refold.run.search`)."""

DEV_SHRINK_SECONDS = 5.0
"""The same under the `dev` profile, which is for fast feedback."""


def default_shrink_seconds() -> float:
    """The shrink budget of a refold run that gave no `--shrink-seconds`."""
    from hypothesis import settings as current

    dev = current.get_current_profile_name() == "dev"
    return DEV_SHRINK_SECONDS if dev else DEFAULT_SHRINK_SECONDS


def register_profiles() -> None:
    """Register the four profiles (idempotent)."""
    slow = [HealthCheck.too_slow, HealthCheck.data_too_large]
    # dev and nightly draw new examples every run, also where Hypothesis sees a CI
    # environment (CI=true makes its default settings derandomized): a profile means
    # the same everywhere.
    settings.register_profile(
        "dev",
        max_examples=20,
        deadline=None,
        print_blob=True,
        derandomize=False,
        suppress_health_check=slow,
    )
    settings.register_profile(
        "ci",
        parent=settings.get_profile("ci"),
        max_examples=CI_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=True,
        suppress_health_check=slow,
    )
    settings.register_profile(
        "nightly",
        max_examples=10 * CI_EXAMPLES,
        deadline=None,
        print_blob=True,
        derandomize=False,
        suppress_health_check=slow,
    )
    settings.register_profile(
        "mutation",
        max_examples=25,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=slow,
    )


def load_gate_profile(
    explicit: str | None, draws: str, *, recorded: str | int | None
) -> dict[str, str | int]:
    """Load a gate run's profile and return its settings (a baseline's `[settings]`).

    The profile is the one asked for, else the one the baseline records (if registered
    here), else ci; with `draws == "fixed"` it is loaded derandomized, without database.
    """
    profile = explicit or (
        recorded if isinstance(recorded, str) and _is_profile(recorded) else "ci"
    )
    if draws == "fixed":
        _fix_draws(profile)
    else:
        settings.load_profile(profile)
    return _gate_settings(profile, draws)


def _is_profile(name: str) -> bool:
    """Whether a Hypothesis profile of that name is registered."""
    try:
        settings.get_profile(name)
    except InvalidArgument:
        return False
    return True


def _fix_draws(profile: str) -> None:
    """Load `profile` derandomized and without an example database.

    The same target then draws the same examples in every run, so it finds the same
    failures: what a baseline run and the check against it need to agree.
    """
    base = settings.get_profile(profile)
    if base.derandomize and base.database is None:
        settings.load_profile(profile)
        return
    settings.register_profile(f"{profile}-fixed", parent=base, derandomize=True, database=None)
    settings.load_profile(f"{profile}-fixed")


def _gate_settings(profile: str, draws: str) -> dict[str, str | int]:
    """What decides the examples of this run, as a baseline's `[settings]` records it."""
    current = settings()  # the loaded profile's values
    return {
        "profile": profile,
        "draws": draws,
        "max_examples": current.max_examples,
        "hypothesis": hypothesis_version,
        "refold": __version__,
    }


def relax_default_deadline() -> None:
    """Drop the 200 ms deadline when nobody chose a profile.

    A target may be a subprocess or a service, where one example can take longer than
    Hypothesis's default deadline without anything being wrong. Only runs that collect
    refold suites call this, so other Hypothesis tests keep their own defaults.
    """
    if settings.get_current_profile_name() == "default":
        settings.register_profile("refold-default", deadline=None)
        settings.load_profile("refold-default")


def limit_shrinking(seconds: float) -> None:
    """Stop shrinking a failing example after `seconds` (Hypothesis's own cap is 300 s).

    A target failing many properties spends most of a run shrinking: openai-python fails
    dozens of them, five minutes each. The cap is Hypothesis's internal
    `MAX_SHRINKING_SECONDS`; a failure is still reported, shrunk as far as the time
    allowed (the rule-example suites show each defect on a hand-minimal stream anyway).

    Raises:
        RuntimeError: this Hypothesis version has no such cap to set.
    """
    from hypothesis.internal.conjecture import engine

    if not hasattr(engine, "MAX_SHRINKING_SECONDS"):
        raise RuntimeError(
            f"hypothesis {engine.__name__} has no MAX_SHRINKING_SECONDS: "
            "--shrink-seconds needs a Hypothesis version that has one"
        )
    engine.MAX_SHRINKING_SECONDS = seconds  # type: ignore[assignment]


def limit_shrinking_to_option(seconds: float | None) -> None:
    """Apply `--shrink-seconds` (nothing when not given).

    Raises:
        UsageError: the seconds are not positive, or this Hypothesis cannot be capped.
    """
    if seconds is None:
        return
    if seconds <= 0:
        raise UsageError(f"--shrink-seconds {seconds}: expected seconds > 0")
    try:
        limit_shrinking(seconds)
    except RuntimeError as exc:
        raise UsageError(str(exc)) from exc
