"""What the plugin (`refold.run.plugin`) knows about a run beyond pytest's own options.

One `RunState` per pytest run, kept in the config's stash with the loaded target and the
outcomes by rule: the baseline and replay file read from the options, the gate's draw
settings, the verdicts, the rules of deselected tests. The hooks read it through
`run_of`, `results_of` and `target_of`.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ..dialects import DEFAULT_DIALECT, DIALECTS, Dialect, dialect, dialect_of_rule
from ..errors import UsageError
from ..gate.baseline import Baseline, check_dialect, load_baseline
from ..records.redaction import shown_text
from ..records.results import RuleResults
from ..targets import Target, load_target
from ..targets.confinement import confinement_of
from .console import printable

__all__ = [
    "RunState",
    "as_usage_error",
    "claimed_features",
    "close_target",
    "collecting_dialect",
    "dialect_of",
    "end_targets",
    "has_run",
    "item_test_id",
    "module_basename",
    "recorded_results",
    "results_of",
    "run_of",
    "settle_dialect",
    "start_results",
    "start_run",
    "target_of",
    "write_run_report",
]

_TARGET_KEY = pytest.StashKey["Target | None"]()
_RESULTS_KEY = pytest.StashKey[RuleResults]()
_RUN_KEY = pytest.StashKey["RunState"]()


class RunState:
    """What the plugin knows about this run beyond pytest's own options."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.started = datetime.now(UTC)
        self.clock = time.monotonic()
        self.baseline: Baseline | None = None
        self.replay: dict[str, Any] | None = None
        self.stale: list[str] = []
        self.replay_target: str | None = None
        self.gate: dict[str, str | int] | None = None  # a gate run's settings
        self.deselected_rules: set[str] = set()
        self.installed_suites = False
        """Whether the plugin chose the installed suites as the run's test paths."""
        self.other_dialects: dict[str, int] = {}
        """Tests collected from another dialect's suites and not run, by dialect name."""
        self.dialect: Dialect | None = None
        """The dialect asked for: `--dialect`, else the baseline's (None: the target's)."""
        self.corpus: list[Any] | None = None
        """The cases of `--corpus` (`refold.capture.corpus.Case`), None without one."""
        self.replays: dict[str, Path] = {}
        """The replay file written for each failed rule, when the run ended."""
        self.claim_verdicts: list[str] = []
        """How the target's claims differ from the baseline's (`refold.gate.judge`)."""
        baseline, replay = config.getoption("baseline"), config.getoption("replay")
        try:
            if config.getoption("dialect"):
                self.dialect = dialect(config.getoption("dialect"))
            if baseline:
                self.baseline = load_baseline(baseline)
                self.dialect = _agreed(self.dialect, self.baseline)
            if replay:
                from ..records.replay import read_replay, recorded_dialect, recorded_target

                self.replay = read_replay(replay)
                self.dialect = _replayed(
                    self.dialect, recorded_dialect(replay, self.replay), replay
                )
                named = config.getoption("target") or (self.baseline and self.baseline.target)
                if not named:
                    self.replay_target = recorded_target(
                        replay, self.replay, command=f"pytest --replay {replay}"
                    )
            if config.getoption("corpus"):
                self._read_corpus(config.getoption("corpus"))
        except UsageError as exc:
            raise as_usage_error(exc) from exc

    def _read_corpus(self, directory: str) -> None:
        """Load the corpus; a corpus of one dialect is the run's when none was asked for."""
        from ..capture.corpus import load_corpus

        self.corpus = load_corpus(directory)
        found = {case.dialect for case in self.corpus}
        if self.dialect is None and len(found) == 1:
            self.dialect = next(iter(found))

    def target_spec(self, config: pytest.Config) -> str:
        """--target, else the baseline's target, else a replay file's built-in target
        (a replay file never names foreign code to run), else the reference."""
        spec = config.getoption("target")
        if not spec and self.baseline is not None:
            spec = self.baseline.target
        return str(spec or self.replay_target or "reference")

    def named(self, config: pytest.Config) -> bool:
        """Whether the run names a target, a baseline or a replay file (a refold run)."""
        return bool(
            config.getoption("target")
            or self.baseline is not None
            or self.replay is not None
            or self.corpus is not None
        )

    def header(self, target: Target) -> list[str]:
        """The lines pytest prints under its own header: target, features, dialect, the
        target's stated projection, baseline, draws."""
        checked = dialect_of(self.config)
        claimed = [f for f in checked.features if f in target.features]
        lines = [
            printable(f"refold target: {target.name} ({target.description})"),
            f"refold features: {', '.join(claimed)}",
            f"refold dialect: {checked.title} ({checked.name}, {checked.spec})",
            f"refold confinement: {confinement_of(target)}",
        ]
        if target.projection is not None:
            from .projection import unjudged_rules

            unjudged = unjudged_rules(target.dialect, target.projection)
            lines.append(
                printable(
                    f"refold projection: {target.projection.describe()}; "
                    f"{len(unjudged)} rules not judged"
                )
            )
        accepts = getattr(target, "accepts", None)
        if accepts is not None:  # an events adapter: the source dialects it is fed
            lines.append(f"refold sources: {', '.join(sorted(accepts))}")
        if self.baseline is not None:
            lines.append(
                f"refold baseline: {self.baseline.path} "
                f"({len(self.baseline.expected_failures)} expected failures)"
            )
        if self.gate is not None:
            # A difference from the baseline's settings is said once, beside the verdicts.
            lines.append(
                f"refold draws: {self.gate['draws']} (profile {self.gate['profile']}, "
                f"max_examples {self.gate['max_examples']})"
            )
        return lines


def as_usage_error(exc: UsageError) -> pytest.UsageError:
    """A refold usage error as pytest reports it (exit status 4): the one place the
    plugin's usage errors are turned into text for the terminal. It may quote a target's
    name or a file's content, and a CI log keeps it: credentials and the environment's
    canaries are scrubbed (`refold.records.redaction.shown_text`) and control characters escaped."""
    return pytest.UsageError(printable(shown_text(str(exc))))


def start_run(config: pytest.Config) -> RunState:
    """Read the run's options into its state and the gate's draw settings, and stash it."""
    config.stash[_RUN_KEY] = run = RunState(config)
    if run.baseline is not None or config.getoption("draws"):
        from .profiles import load_gate_profile

        run.gate = load_gate_profile(
            config.getoption("hypothesis_profile"),
            config.getoption("draws") or "fixed",
            recorded=run.baseline.settings.get("profile") if run.baseline else None,
        )
    return run


def run_of(config: pytest.Config) -> RunState:
    """This run's state (after `pytest_configure`)."""
    return config.stash[_RUN_KEY]


def has_run(config: pytest.Config) -> bool:
    """Whether `pytest_configure` set up this run's state."""
    return _RUN_KEY in config.stash


def start_results(config: pytest.Config) -> RuleResults:
    """Stash empty outcomes by rule for this process to record into."""
    config.stash[_RESULTS_KEY] = results = RuleResults()
    return results


def results_of(config: pytest.Config) -> RuleResults:
    """The outcomes by rule this process records (after `start_results`)."""
    return config.stash[_RESULTS_KEY]


def recorded_results(config: pytest.Config) -> RuleResults | None:
    """The outcomes by rule, if this run records any."""
    return config.stash.get(_RESULTS_KEY, None)


def target_of(config: pytest.Config) -> Target:
    """The target under test, loaded on first use (and the baseline's claims checked)."""
    if _TARGET_KEY not in config.stash:
        run = run_of(config)
        try:
            loaded = load_target(
                run.target_spec(config),
                dialect=run.dialect,
                features=claimed_features(config, run.baseline),
                timeout=config.getoption("target_timeout"),
                isolated=not config.getoption("in_process"),
                max_reply=config.getoption("target_max_reply"),
            )
            config.stash[_TARGET_KEY] = loaded
            _check_projection(config, run, loaded)
            if run.baseline is not None:
                from ..gate.judge import check_claims, claim_differences

                check_claims(run.baseline, loaded.features, loaded.name)
                run.claim_verdicts = claim_differences(run.baseline, loaded)
        except UsageError as exc:
            raise as_usage_error(exc) from exc
    target = config.stash[_TARGET_KEY]
    assert target is not None, "internal error: target unloaded"
    return target


def _check_projection(config: pytest.Config, run: RunState, target: Target) -> None:
    """Refuse a stated projection leaving claimed rules unjudged that the user did not
    accept: with --accept-projection, by recording it in the baseline, or by choosing a
    built-in target (whose projection is refold's own, reviewed with it)."""
    from ..targets.loading import BUILTIN_TARGETS
    from .projection import check_accepted

    if target.projection is None:
        return
    spec = run.target_spec(config)
    accepted = (
        bool(config.getoption("accept_projection"))
        or spec in BUILTIN_TARGETS
        or (run.baseline is not None and run.baseline.projection == target.projection.record())
    )
    check_accepted(
        target.dialect,
        target.projection,
        target.features,
        origin=f"target {target.name}",
        accepted=accepted,
    )


def dialect_of(config: pytest.Config) -> Dialect:
    """The dialect this run checks: the loaded target's; before it is loaded, the one
    asked for (`--dialect`, the baseline's), else the registry's default (`DEFAULT_DIALECT`)."""
    loaded = config.stash.get(_TARGET_KEY, None)
    if loaded is not None:
        return loaded.dialect
    return run_of(config).dialect or DIALECTS[DEFAULT_DIALECT]


def collecting_dialect(config: pytest.Config) -> Dialect:
    """The dialect the generic suites are collected for (`refold.suites._kits`), before
    the collected tests' marks can say: the one asked for (`--dialect`, the baseline's,
    the replay file's, the corpus'), else the named target's (loaded now: a run loads it
    while it collects anyway), else the registry's default (`DEFAULT_DIALECT`)."""
    run = run_of(config)
    if run.dialect is not None:
        return run.dialect
    return target_of(config).dialect if run.named(config) else dialect_of(config)


def settle_dialect(config: pytest.Config, found: set[Dialect]) -> None:
    """When nothing asked for a dialect and every collected test is of one, run that one
    (`pytest suites/anthropic` checks the Anthropic dialect); the target, loaded next,
    must then be of it (or, like `reference`, serve any)."""
    run = run_of(config)
    if run.dialect is None and len(found) == 1 and _TARGET_KEY not in config.stash:
        run.dialect = next(iter(found))


def recorded_dialects(results: RuleResults) -> set[Dialect]:
    """The dialects of the rules outcomes were recorded for (one, in a refold run)."""
    return {found for found in map(dialect_of_rule, results.by_rule) if found is not None}


def _agreed(asked: Dialect | None, baseline: Baseline) -> Dialect:
    """The baseline's dialect (a file without one gates `UNNAMED_DIALECT`'s), which must be the
    one asked for."""
    if asked is not None:
        check_dialect(baseline, asked)
    return dialect(baseline.dialect)


def _replayed(asked: Dialect | None, recorded: Dialect, path: str) -> Dialect:
    """A replay file's dialect, which must be the one asked for."""
    if asked is not None and asked is not recorded:
        raise UsageError(
            f"replay file {path} records a stream of dialect {recorded.name} "
            f"({recorded.title}), but this run checks {asked.name}; replay it "
            f"with --dialect {recorded.name} (or without --dialect)"
        )
    return recorded


def close_target(config: pytest.Config) -> None:
    """Close the target if this run loaded one."""
    target = config.stash.get(_TARGET_KEY, None)
    if target is not None:
        target.close()


def end_targets(config: pytest.Config, *, load: bool) -> None:
    """Close the run's target (loading it first with `load`, for a report to name it) and
    kill every process a target started: before any result or report is written."""
    from ..targets.process_tree import sweep

    run = run_of(config)
    found = recorded_results(config)
    if load and run.named(config) and found is not None and found.by_rule:
        target_of(config)
    if run.named(config) or config.stash.get(_TARGET_KEY, None) is not None:
        close_target(config)
        sweep()


def claimed_features(config: pytest.Config, baseline: Baseline | None) -> frozenset[str] | None:
    """The features `--features` or the baseline claims (None: all the target supports).

    Raises:
        UsageError: both claim features, and not the same ones.
    """
    raw = config.getoption("features")
    given = frozenset(f.strip() for f in raw.split(",") if f.strip()) if raw else None
    listed = baseline.features if baseline is not None else None
    if given is not None and listed is not None and given != listed:
        raise UsageError(
            f"--features {raw} and baseline {baseline.path if baseline else ''} claim "
            f"different features ({sorted(given ^ listed)} differ); claim them in one place"
        )
    return given if given is not None else listed


def module_basename(item: pytest.Item) -> str:
    """The last name of the module a test was collected from ('' if none)."""
    module = getattr(item, "module", None)
    return str(getattr(module, "__name__", "")).rpartition(".")[2]


def item_test_id(item: pytest.Item) -> str:
    """The test's name as fingerprints give it (`refold.verdicts.fingerprints.test_id`)."""
    from ..verdicts.fingerprints import test_id

    return test_id(module_basename(item), item.nodeid)


def write_run_report(
    config: pytest.Config, run: RunState, results: RuleResults, destination: Path
) -> None:
    """Write the results JSON (`--refold-report`)."""
    from hypothesis import settings

    from ..records.report import build_report, write_report

    # Under xdist only the workers collect, so the controller loads the target here
    # to name it and its features in the report, of the dialect its workers ran.
    settle_dialect(config, recorded_dialects(results))
    report = build_report(
        results,
        target=target_of(config),
        started=run.started,
        duration_seconds=time.monotonic() - run.clock,
        hypothesis_profile=settings.get_current_profile_name(),
        settings=run.gate,
        dialect=dialect_of(config),
    )
    write_report(report, Path(destination))
