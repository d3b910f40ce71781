"""The pytest plugin (entry point `pytest11: refold`): `pytest --target=mypkg`.

Inert in every pytest run that names none of its options and collects no test marked
with `rule`. With `--target`, `--baseline` or `--replay` and no test paths, it collects
the installed suites, so `pytest --target=mypkg` works from any directory. It then:

* binds the session-scoped `check` fixture to the target and to each test's rules;
* skips a test whose rules belong to a feature the target does not claim, and applies
  the baseline (`refold.baseline`): skips, and expected failures as xfail;
* records one outcome per rule (on the xdist controller), fails the run on a stale
  baseline entry, prints the table and writes the results JSON (`--refold-report`);
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

from refold.reference import ALL_RULES, FEATURES

from .baseline import Baseline, load_baseline
from .checks import Check, ConformanceFailure
from .errors import UsageError
from .loading import load_target
from .locations import suites_dir
from .marks import rules_of_item
from .profiles import limit_shrinking, register_profiles, relax_default_deadline
from .results import FAILURE_PROPERTY, IMPLICATED_PROPERTY, RuleOutcome, RuleResults
from .targets import Target

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
        baseline, replay = config.getoption("baseline"), config.getoption("replay")
        try:
            if baseline:
                self.baseline = load_baseline(baseline)
            if replay:
                from .replay import read_replay

                self.replay = read_replay(replay)
        except UsageError as exc:
            raise pytest.UsageError(str(exc)) from exc

    def target_spec(self, config: pytest.Config) -> str:
        """--target, else the baseline's or the replay file's target, else the reference."""
        spec = config.getoption("target")
        if not spec and self.baseline is not None:
            spec = self.baseline.target
        if not spec and self.replay is not None:
            spec = self.replay.get("target")
        return str(spec or "reference")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("refold", "refold conformance suite")
    group.addoption("--target", default=None, metavar="TARGET",
                    help="implementation to check: reference (default), a registered name, "
                         "a module, module:attr, a .py file, exec:COMMAND or an http:// URL")
    group.addoption("--features", default=None, metavar="A,B,C",
                    help="features the target claims (default: all its interface supports)")
    group.addoption("--target-timeout", type=float, default=5.0, metavar="SECONDS",
                    help="per-call timeout for exec: and http:// targets (default 5)")
    group.addoption("--baseline", default=None, metavar="FILE",
                    help="TOML baseline: claimed features, expected failures, skips")
    group.addoption("--refold-report", default=None, metavar="FILE",
                    help="write the results by rule as JSON")
    group.addoption("--replay", default=None, metavar="FILE",
                    help="re-run the failure recorded in a replay file")
    group.addoption("--shrink-seconds", type=float, default=None, metavar="SECONDS",
                    help="stop shrinking a failing example after SECONDS (default: "
                         "Hypothesis's 300); for targets that fail many properties")
    group.addoption("--replay-dir", default="refold-replays", metavar="DIR",
                    help="where failures write replay files (default ./refold-replays; "
                         "an empty value writes none)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rule(*ids, features): the spec (or sse wire) rules a conformance test checks")
    config.stash[_RESULTS_KEY] = RuleResults()
    shrink_seconds = config.getoption("shrink_seconds")
    if shrink_seconds is not None:
        if shrink_seconds <= 0:
            raise pytest.UsageError(f"--shrink-seconds {shrink_seconds}: expected seconds > 0")
        try:
            limit_shrinking(shrink_seconds)
        except RuntimeError as exc:
            raise pytest.UsageError(str(exc)) from exc
    config.stash[_RUN_KEY] = run = _Run(config)
    config.pluginmanager.register(_ResultRecorder(config.stash[_RESULTS_KEY]), "refold-results")
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
            config.stash[_TARGET_KEY] = load_target(
                run.target_spec(config), features=_claimed_features(config, run.baseline),
                timeout=config.getoption("target_timeout"))
        except UsageError as exc:
            raise pytest.UsageError(str(exc)) from exc
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
    target = _target(config)
    run = config.stash[_RUN_KEY]
    for item, rules in marked:
        features = tuple(dict.fromkeys(ALL_RULES[r].feature for r in rules))
        item.user_properties.append(("rules", " ".join(rules)))
        item.user_properties.append(("features", " ".join(features)))
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
    from .replay import blob_of

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
        hypothesis = replay.get("hypothesis") or {}
        function = getattr(item, "obj", None)
        if replay.get("expected") is not None or function is None:
            continue
        blob = blob_of(replay)
        if blob is not None:
            function._hypothesis_internal_use_reproduce_failure = blob
        elif hypothesis.get("seed") is not None:
            function._hypothesis_internal_use_seed = hypothesis["seed"]


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
    """Replay a recorded fold-and-compare case instead of drawing new examples."""
    case = pyfuncitem.stash.get(_REPLAY_CASE_KEY, None)
    if case is None:
        return None
    bound = pyfuncitem.funcargs.get("check")
    if case.get("expected") is not None and isinstance(bound, Check):
        bound.folds_to(case["chunks"], case["expected"])
        return True
    from hypothesis.errors import DidNotReproduce

    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    # DidNotReproduce: the recorded example no longer fails, so the target was fixed.
    with contextlib.suppress(DidNotReproduce):
        pyfuncitem.obj(**arguments)
    return True


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    failure = _conformance_failure(call.excinfo.value) if call.excinfo else None
    if failure is not None and call.when == "call":
        from .replay import failure_record

        record = failure_record(failure)
        report.user_properties.append((FAILURE_PROPERTY, record))
        report.user_properties.append((IMPLICATED_PROPERTY, " ".join(failure.implicated)))
        path = _write_replay_file(item, failure, call.excinfo.value if call.excinfo else None)
        if path is not None:
            record["replay_file"] = str(path)  # the reports show the command that replays it
            report.sections.append(("refold replay", f"replay file: {path}\nre-run: pytest "
                                    f"--replay {path}"))
    return report


def _conformance_failure(exc: BaseException) -> ConformanceFailure | None:
    if isinstance(exc, ConformanceFailure):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _conformance_failure(inner)
            if found is not None:
                return found
    return None


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
    lines = [f"refold target: {target.name} ({target.description})",
             f"refold features: {', '.join(claimed)}"]
    if run.baseline is not None:
        lines.append(f"refold baseline: {run.baseline.path} "
                     f"({len(run.baseline.expected_failures)} expected failures)")
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
            hypothesis_profile=settings.get_current_profile_name())
        write_report(report, Path(destination))


def _judge_baseline(session: pytest.Session, run: _Run, results: RuleResults) -> None:
    """Fail the run on every expected failure whose rule no longer fails."""
    assert run.baseline is not None
    for nodeid, implicated in results.xfailed_implicated:
        for rule_id in sorted(implicated - run.baseline.expected_failures.keys()):
            message = (f"new failure: {rule_id} fails in {nodeid}, a test the baseline "
                       f"{run.baseline.path} expects to fail only for "
                       f"{', '.join(sorted(implicated & run.baseline.expected_failures.keys()))}")
            results.by_rule.setdefault(rule_id, RuleOutcome()).mark_failed(message)
            run.stale.append(message)
    for rule_id, reason in run.baseline.expected_failures.items():
        outcome = results.by_rule.get(rule_id)
        if outcome is None or outcome.status != "passed":
            continue
        message = (f"stale baseline entry: {rule_id} passes now, but {run.baseline.path} "
                   f"expects it to fail ({reason}); remove the entry")
        outcome.mark_stale(message)
        run.stale.append(message)
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
    for message in config.stash[_RUN_KEY].stale:
        terminalreporter.write_line(message, red=True, bold=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    target = config.stash.get(_TARGET_KEY, None)
    if target is not None:
        target.close()
