"""Hypothesis settings profiles registered by the refold plugin.

    dev       fast feedback while writing a target
    ci        derandomized, no example database: the release gate (`CI=true` selects it)
    nightly   ten times the ci examples, randomized, for the nightly job
    mutation  derandomized, few examples, no database: one run per mutant must be cheap

Select one with `--hypothesis-profile NAME`. Registered at import time because
Hypothesis loads the chosen profile in its own `pytest_configure`.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings

__all__ = ["CI_EXAMPLES", "register_profiles"]

CI_EXAMPLES = 100


def register_profiles() -> None:
    """Register the four profiles (idempotent)."""
    slow = [HealthCheck.too_slow, HealthCheck.data_too_large]
    settings.register_profile("dev", max_examples=20, deadline=None, print_blob=True,
                              suppress_health_check=slow)
    settings.register_profile(
        "ci", parent=settings.get_profile("ci"), max_examples=CI_EXAMPLES, deadline=None,
        derandomize=True, database=None, print_blob=True, suppress_health_check=slow,
    )
    settings.register_profile(
        "nightly", max_examples=10 * CI_EXAMPLES, deadline=None, print_blob=True,
        suppress_health_check=slow,
    )
    settings.register_profile(
        "mutation", max_examples=25, deadline=None, derandomize=True, database=None,
        print_blob=True,
        phases=[Phase.explicit, Phase.generate, Phase.shrink], suppress_health_check=slow,
    )
