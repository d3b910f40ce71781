"""The pytest plugin (entry point `pytest11: refold`): `pytest --target=mypkg`.

Inert in every pytest run that names none of its options and collects no test marked
with `rule`. With `--target`, `--baseline` or `--replay` and no test paths, it collects
the installed suites, so `pytest --target=mypkg` works from any directory. It then:

* binds the session-scoped `check` fixture to the target and to each test's rules;
* skips a test whose rules belong to a feature the target does not claim, and applies
  the baseline (`refold.baseline`): skips, and expected failures as xfail;
* with a baseline, draws fixed examples (`refold.profiles.load_gate_profile`) and judges
  against it (`refold.gate`): new failures and stale entries fail the run;
* records one outcome per rule (on the xdist controller), prints the table and writes
  the results JSON (`--refold-report`);
* writes a replay file for every conformance failure, and re-runs one (`--replay`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Generator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from refold.reference import ALL_RULES, FEATURES, scrub_text

from .baseline import Baseline, load_baseline
from .checks import Check, ConformanceFailure
from .completion import CompletionWatch
from .console import escape_report, printable
from .errors import UsageError
from .loading import load_target
from .locations import suites_dir
from .marks import rules_of_item
from .preflight import check_pytest_options
from .profiles import (
    DEFAULT_SHRINK_SECONDS,
    DEV_SHRINK_SECONDS,
    default_shrink_seconds,
    limit_shrinking,
    register_profiles,
    relax_default_deadline,
)
from .results import (
    BLOCKED_PROPERTY,
    FAILURE_PROPERTY,
    FINGERPRINTS_PROPERTY,
    IMPLICATED_PROPERTY,
    TEST_PROPERTY,
    RuleResults,
)
from .search import (
    UNSHRUNK,
    explain_shrink_stop,
    properties_last,
    replayed_as_recorded,
    run_as_needed,
)
from .targets import DEFAULT_MAX_REPLY, Target

register_profiles()

_TARGET_KEY = pytest.StashKey["Target | None"]()
_RESULTS_KEY = pytest.StashKey[RuleResults]()
_RUN_KEY = pytest.StashKey["_Run"]()
_REPLAY_CASE_KEY = pytest.StashKey[dict[str, Any]]()


class _Run:
    """What the plugin knows about this run beyond pytest's own options."""

    def __init__(self, config: pytest.Config) -> None:
        self.started = datetime.now(UTC)
        self.clock = time.monotonic()
        self.baseline: Baseline | None = None
        self.replay: dict[str, Any] | None = None
        self.stale: list[str] = []
        self.replay_files: list[str] = []
        self.replay_target: str | None = None
        self.gate: dict[str, str | int] | None = None  # a gate run's settings
        self.deselected_rules: set[str] = set()
        baseline, replay = config.getoption("baseline"), config.getoption("replay")
        try:
            if baseline:
                self.baseline = load_baseline(baseline)
            if replay:
                from .replay import read_replay, recorded_target

                self.replay = read_replay(replay)
                named = config.getoption("target") or (self.baseline and self.baseline.target)
                if not named:
                    self.replay_target = recorded_target(
                        replay, self.replay, command=f"pytest --replay {replay}")
        except UsageError as exc:
            raise pytest.UsageError(_shown(exc)) from exc

    def target_spec(self, config: pytest.Config) -> str:
        """--target, else the baseline's target, else a replay file's built-in target
        (a replay file never names foreign code to run), else the reference."""
        spec = config.getoption("target")
        if not spec and self.baseline is not None:
            spec = self.baseline.target
        return str(spec or self.replay_target or "reference")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("refold", "refold conformance suite")
    group.addoption("--target", default=None, metavar="TARGET",
                    help="implementation to check: reference (default), a registered name, "
                         "a module, module:attr, a .py file, exec:COMMAND or an http:// URL")
    group.addoption("--features", default=None, metavar="A,B,C",
                    help="features the target claims (default: all its interface supports)")
    group.addoption("--target-timeout", type=float, default=5.0, metavar="SECONDS",
                    help="deadline of every call into the target (default 5; none with "
                         "--in-process)")
    group.addoption("--target-max-reply", type=int, default=DEFAULT_MAX_REPLY, metavar="BYTES",
                    help=f"largest reply accepted from a target out of this process "
                         f"(default {DEFAULT_MAX_REPLY}, 64 MiB)")
    group.addoption("--in-process", action="store_true", default=False,
                    help="debugging: run a Python target in pytest's own process (no deadline; "
                         "a crash, exit or patch by the target takes the run with it)")
    group.addoption("--baseline", default=None, metavar="FILE",
                    help="TOML baseline: claimed features, expected failures, skips")
    group.addoption("--refold-report", default=None, metavar="FILE",
                    help="write the results by rule as JSON")
    group.addoption("--replay", default=None, metavar="FILE",
                    help="re-run the failure recorded in a replay file")
    group.addoption("--shrink-seconds", type=float, default=None, metavar="SECONDS",
                    help="stop shrinking a failing example after SECONDS (default in a "
                         f"refold run: {DEFAULT_SHRINK_SECONDS:g}, {DEV_SHRINK_SECONDS:g} with the "
                         "dev profile; Hypothesis's own: 300)")
    group.addoption("--draws", default=None, choices=("fixed", "profile"),
                    help="fixed: derandomized, no example database, the same examples every "
                         "run (the default with --baseline); profile: as the profile says")
    group.addoption("--replay-dir", default="refold-replays", metavar="DIR",
                    help="where failures write replay files (default ./refold-replays; "
                         "an empty value writes none)")


@pytest.hookimpl(trylast=True)  # after Hypothesis's plugin loaded --hypothesis-profile
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rule(*ids, features): the spec (or sse wire) rules a conformance test checks")
    config.stash[_RESULTS_KEY] = RuleResults()
    try:
        check_pytest_options(config.getoption, refold_run=bool(
            config.getoption("target") or config.getoption("baseline")
            or config.getoption("replay")))
    except UsageError as exc:
        raise pytest.UsageError(_shown(exc)) from exc
    shrink_seconds = config.getoption("shrink_seconds")
    if shrink_seconds is not None:
        if shrink_seconds <= 0:
            raise pytest.UsageError(f"--shrink-seconds {shrink_seconds}: expected seconds > 0")
        try:
            limit_shrinking(shrink_seconds)
        except RuntimeError as exc:
            raise pytest.UsageError(_shown(exc)) from exc
    config.stash[_RUN_KEY] = run = _Run(config)
    if run.baseline is not None or config.getoption("draws"):
        from .profiles import load_gate_profile

        run.gate = load_gate_profile(
            config.getoption("hypothesis_profile"), config.getoption("draws") or "fixed",
            recorded=run.baseline.settings.get("profile") if run.baseline else None)
    config.pluginmanager.register(_ResultRecorder(config.stash[_RESULTS_KEY]), "refold-results")
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(CompletionWatch(), "refold-completion")
    named = config.getoption("target") or run.baseline is not None or run.replay is not None
    if named and config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = [str(_installed_suites())]


def _installed_suites() -> Path:
    """The installed suites' folder, found without importing them (pytest imports them)."""
    try:
        return suites_dir()
    except LookupError as exc:
        raise pytest.UsageError(f"{exc}: reinstall refold") from exc


def _target(config: pytest.Config) -> Target:
    if _TARGET_KEY not in config.stash:
        run = config.stash[_RUN_KEY]
        try:
            loaded = load_target(
                run.target_spec(config), features=_claimed_features(config, run.baseline),
                timeout=config.getoption("target_timeout"),
                isolated=not config.getoption("in_process"),
                max_reply=config.getoption("target_max_reply"))
            config.stash[_TARGET_KEY] = loaded
            if run.baseline is not None:
                from .gate import check_claims

                check_claims(run.baseline, loaded.features, loaded.name)
        except UsageError as exc:
            raise pytest.UsageError(_shown(exc)) from exc
    target = config.stash[_TARGET_KEY]
    assert target is not None, "internal error: target unloaded"
    return target


def _claimed_features(config: pytest.Config, baseline: Baseline | None) -> frozenset[str] | None:
    raw = config.getoption("features")
    given = frozenset(f.strip() for f in raw.split(",") if f.strip()) if raw else None
    listed = baseline.features if baseline is not None else None
    if given is not None and listed is not None and given != listed:
        raise UsageError(
            f"--features {raw} and baseline {baseline.path if baseline else ''} claim "
            f"different features ({sorted(given ^ listed)} differ); claim them in one place")
    return given if given is not None else listed


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    marked = [(item, rules_of_item(item)) for item in items]
    marked = [(item, rules) for item, rules in marked if rules]
    if not marked:
        return
    relax_default_deadline()
    if config.getoption("shrink_seconds") is None:
        with contextlib.suppress(RuntimeError):  # a Hypothesis without the cap: its own
            limit_shrinking(default_shrink_seconds())
    properties_last(items)
    target = _target(config)
    run = config.stash[_RUN_KEY]
    for item, rules in marked:
        features = tuple(dict.fromkeys(ALL_RULES[r].feature for r in rules))
        item.user_properties.append(("rules", " ".join(rules)))
        item.user_properties.append(("features", " ".join(features)))
        item.user_properties.append((TEST_PROPERTY, _test_id(item)))
        _apply_claims(item, rules, features, target, run.baseline)
    if run.replay is not None:
        _select_replayed(config, items, run.replay)


def _apply_claims(item: pytest.Item, rules: tuple[str, ...], features: tuple[str, ...],
                  target: Target, baseline: Baseline | None) -> None:
    missing = [f for f in features if f not in target.features]
    if missing:
        why = baseline.unsupported_features.get(missing[0]) if baseline else None
        reason = f"target {target.name} does not claim feature {', '.join(missing)}"
        item.add_marker(pytest.mark.skip(reason=f"{reason}: {why}" if why else reason))
        return
    if baseline is None:
        return
    skipped = [r for r in rules if r in baseline.skips]
    if skipped:
        item.add_marker(pytest.mark.skip(
            reason=f"baseline skips {skipped[0]}: {baseline.skips[skipped[0]]}"))
        return
    expected = [r for r in rules if r in baseline.expected_failures]
    if expected:
        reasons = "; ".join(f"{r}: {baseline.expected_failures[r]}" for r in expected)
        item.add_marker(pytest.mark.xfail(reason=f"baseline: {reasons}", strict=False))


def _select_replayed(config: pytest.Config, items: list[pytest.Item],
                     replay: dict[str, Any]) -> None:
    test = replay["test"]
    chosen = [item for item in items if item.name == test["name"]
              and _module_basename(item) == test["module"]]
    if not chosen:
        raise pytest.UsageError(
            f"--replay: the recorded test {test['module']}::{test['name']} is not among the "
            f"{len(items)} collected tests (were the suites changed?)")
    config.hook.pytest_deselected(items=[i for i in items if i not in chosen])
    items[:] = chosen
    for item in chosen:
        item.stash[_REPLAY_CASE_KEY] = replay


def pytest_deselected(items: list[pytest.Item]) -> None:
    """Note the rules of deselected tests: a rule not fully run is not judged stale."""
    for item in items:
        run = item.config.stash.get(_RUN_KEY, None)
        if run is not None:
            run.deselected_rules.update(rules_of_item(item))


def _test_id(item: pytest.Item) -> str:
    from .fingerprints import test_id

    return test_id(_module_basename(item), item.nodeid)


def _module_basename(item: pytest.Item) -> str:
    module = getattr(item, "module", None)
    return str(getattr(module, "__name__", "")).rpartition(".")[2]


@pytest.fixture(scope="session")
def refold_target(pytestconfig: pytest.Config) -> Target:
    """The implementation under test (`--target`, the reference by default)."""
    return _target(pytestconfig)


@pytest.fixture(scope="session")
def check(refold_target: Target) -> Check:
    """The suite's handle on the target, re-bound to each test's rules before it runs."""
    return Check(refold_target)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    bound = getattr(item, "funcargs", {}).get("check")
    if isinstance(bound, Check):
        bound.rules = rules_of_item(item)
        baseline = item.config.stash[_RUN_KEY].baseline
        known = frozenset(baseline.expected_failures) if baseline is not None else frozenset()
        bound.masked = known - set(bound.rules)
    try:
        return (yield)
    finally:
        if isinstance(bound, Check):
            bound.rules, bound.masked = (), frozenset()


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Replay a recorded case instead of drawing new examples; else search a property
    only as far as the verdicts need (`refold.search`)."""
    case = pyfuncitem.stash.get(_REPLAY_CASE_KEY, None)
    if case is None:
        results = pyfuncitem.config.stash[_RESULTS_KEY]
        return run_as_needed(pyfuncitem, lambda r: results.status(r) == "failed",
                             _first_conformance_failure)
    from .replay import replays_fold, reproducing

    bound = pyfuncitem.funcargs.get("check")
    if replays_fold(case) and isinstance(bound, Check):
        bound.folds_to(case["chunks"], case["expected"])
        return True
    from hypothesis.errors import DidNotReproduce

    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    # DidNotReproduce: the recorded example no longer fails, so the target was fixed.
    with contextlib.suppress(DidNotReproduce), reproducing(pyfuncitem.obj, case), \
            replayed_as_recorded(pyfuncitem, case.get("hypothesis") or {}):
        pyfuncitem.obj(**arguments)
    return True


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    failures = _conformance_failures(call.excinfo.value) if call.excinfo else []
    if call.when == "call":
        from .crashes import analyse

        # Once per failed test, before its report renders the message: not on every
        # example Hypothesis tries while shrinking.
        for found in failures:
            if found.crash is not None:
                analyse(found.crash, found.chunks or [], _target(item.config))
    if call.when == "call" and call.excinfo is not None and rules_of_item(item):
        from hypothesis.internal.conjecture import engine

        explain_shrink_stop(item, None if item.stash.get(UNSHRUNK, False)
                            else engine.MAX_SHRINKING_SECONDS)
    report = yield
    if report.failed and rules_of_item(item):
        escape_report(report)  # the traceback quotes what the target raised
    if call.when == "call" and call.excinfo and (report.failed or hasattr(report, "wasxfail")):
        from .fingerprints import fingerprints_of

        report.user_properties.append((FINGERPRINTS_PROPERTY, fingerprints_of(
            call.excinfo.value, test=_test_id(item), rules=rules_of_item(item))))
    failure = failures[0] if failures else None
    if failure is not None and call.when == "call":
        from .replay import encode_failure

        # Hypothesis may report several distinct failures at once: each one's evidence
        # counts, and a rule one of them implicates is not blocked by another.
        implicated = tuple(dict.fromkeys(r for f in failures for r in f.implicated))
        blocked = tuple(dict.fromkeys(r for f in failures for r in f.blocked
                                      if r not in implicated))
        path = _write_replay_file(item, failure, call.excinfo.value if call.excinfo else None)
        # The reports show the command that replays it.
        report.user_properties.append((FAILURE_PROPERTY, encode_failure(
            failure, replay_file=str(path) if path is not None else None)))
        report.user_properties.append((IMPLICATED_PROPERTY, " ".join(implicated)))
        report.user_properties.append((BLOCKED_PROPERTY, " ".join(blocked)))
        _expect_known_crash(item, report, failures, implicated)
        if path is not None:
            import shlex

            spec = shlex.quote(item.config.stash[_RUN_KEY].target_spec(item.config))
            report.sections.append(("refold replay", f"replay file: {path}\nre-run: pytest "
                                    f"--replay {path} --target {spec}"))
    return report


def _expect_known_crash(item: pytest.Item, report: pytest.TestReport,
                        failures: list[ConformanceFailure], implicated: tuple[str, ...]) -> None:
    """Crashes charged only to a baseline's expected failures are those failures: the test
    reads xfailed, and its other rules blocked, not new failures."""
    baseline = item.config.stash[_RUN_KEY].baseline
    if (baseline is None or not report.failed
            or not all(f.crash is not None and f.crash.explained for f in failures)
            or not set(implicated) <= baseline.expected_failures.keys()):
        return
    report.outcome = "skipped"
    report.wasxfail = (f"baseline: the crash is charged to {', '.join(implicated)}, "
                       f"expected to fail")


def _shown(exc: Exception) -> str:
    """A usage error as the terminal (and a CI log) shows it: it may quote a target's name
    or a file's content, so credentials are scrubbed and control characters escaped."""
    return printable(scrub_text(str(exc)))


def _first_conformance_failure(exc: BaseException) -> ConformanceFailure | None:
    found = _conformance_failures(exc)
    return found[0] if found else None


def _conformance_failures(exc: BaseException) -> list[ConformanceFailure]:
    """The conformance failures `exc` is or holds (Hypothesis groups distinct ones)."""
    if isinstance(exc, ConformanceFailure):
        return [exc]
    if isinstance(exc, BaseExceptionGroup):
        return [found for inner in exc.exceptions for found in _conformance_failures(inner)]
    return []


def _write_replay_file(item: pytest.Item, failure: ConformanceFailure,
                       exc: BaseException | None) -> Path | None:
    from hypothesis import __version__ as hypothesis_version
    from hypothesis import settings

    from .replay import reproduce_blob, write_replay

    config = item.config
    if not config.getoption("replay_dir"):
        return None
    blob = reproduce_blob(exc) if exc is not None else None
    function = getattr(item, "obj", None)
    hypothesis = {
        "version": hypothesis_version,
        "reproduce_failure": [blob[0], repr(blob[1])] if blob else None,
        "seed": getattr(function, "_hypothesis_internal_use_generated_seed", None),
        "profile": settings.get_current_profile_name(),
        "shrunk": not item.stash.get(UNSHRUNK, False),
    }
    try:
        return write_replay(
            Path(config.getoption("replay_dir")), failure,
            target=config.stash[_RUN_KEY].target_spec(config),
            test={"module": _module_basename(item), "name": item.name}, hypothesis=hypothesis)
    except OSError as exc_:
        item.warn(pytest.PytestWarning(f"refold could not write a replay file: {exc_}"))
        return None


class _ResultRecorder:
    """Collects one outcome per rule; on xdist this runs on the controller."""

    def __init__(self, results: RuleResults) -> None:
        self.results = results

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        rules = dict(report.user_properties).get("rules")
        if rules:
            self.results.record(report, str(rules).split())


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    run = config.stash[_RUN_KEY]
    if not (config.getoption("target") or run.baseline or run.replay):
        return None
    target = _target(config)
    claimed = [f for f in FEATURES if f in target.features]
    lines = [printable(f"refold target: {target.name} ({target.description})"),
             f"refold features: {', '.join(claimed)}"]
    if run.baseline is not None:
        lines.append(f"refold baseline: {run.baseline.path} "
                     f"({len(run.baseline.expected_failures)} expected failures)")
    if run.gate is not None:
        # A difference from the baseline's settings is said once, beside the verdicts.
        lines.append(f"refold draws: {run.gate['draws']} (profile {run.gate['profile']}, "
                     f"max_examples {run.gate['max_examples']})")
    return lines


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if hasattr(config, "workerinput") or _RUN_KEY not in config.stash:
        return  # an xdist worker: the controller judges the run and writes the report
    run, results = config.stash[_RUN_KEY], config.stash[_RESULTS_KEY]
    if run.baseline is not None:
        _judge_baseline(session, run, results)
    destination = config.getoption("refold_report")
    if destination and results.by_rule:
        from hypothesis import settings

        from .report import build_report, write_report

        # Under xdist only the workers collect, so the controller loads the target here
        # to name it and its features in the report.
        report = build_report(
            results, target=_target(config), started=run.started,
            duration_seconds=time.monotonic() - run.clock,
            hypothesis_profile=settings.get_current_profile_name(), settings=run.gate)
        write_report(report, Path(destination))


def _judge_baseline(session: pytest.Session, run: _Run, results: RuleResults) -> None:
    """Fail the run on every new failure and stale entry (see `refold.gate`)."""
    from .gate import judge

    assert run.baseline is not None
    run.stale += judge(run.baseline, results, deselected_rules=frozenset(run.deselected_rules))
    if run.stale and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(
    terminalreporter: Any, exitstatus: int, config: pytest.Config
) -> None:
    results = config.stash.get(_RESULTS_KEY, None)
    if results is None or not results.by_rule:
        return
    from .table import render_rule_table

    terminalreporter.section("refold: results by feature and rule")
    terminalreporter.write(render_rule_table(results, color=terminalreporter.hasmarkup))
    run = config.stash[_RUN_KEY]
    from .gate import settings_notes

    for note in settings_notes(run.baseline, run.gate):
        terminalreporter.write_line(note, yellow=True, bold=True)
    for message in run.stale:
        terminalreporter.write_line(printable(message), red=True, bold=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    target = config.stash.get(_TARGET_KEY, None)
    if target is not None:
        target.close()
