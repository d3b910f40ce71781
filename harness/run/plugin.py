"""The pytest plugin (entry point `pytest11: refold`): `pytest --target=mypkg`.

Inert in every pytest run that names none of its options and collects no test marked
with `rule`. With `--target`, `--baseline` or `--replay` and no test paths, it collects
the installed suites, so `pytest --target=mypkg` works from any directory. It then:

* binds the session-scoped `check` fixture to the target and to each test's rules;
* skips a test whose rules belong to a feature the target does not claim, and applies
  the baseline (`refold.gate.baseline`): skips, and expected failures as xfail;
* with a baseline, draws fixed examples (`refold.run.profiles.load_gate_profile`) and judges
  against it (`refold.gate.judge`): new failures and stale entries fail the run;
* records one outcome per rule (on the xdist controller), prints the table and writes
  the results JSON (`--refold-report`); unless `-v`, the console is compact: one block per
  failed rule before the table instead of pytest's traceback per test
  (`refold.run.console_summary`);
* writes a replay file for every failed rule, and re-runs one (`--replay`).

The hooks only delegate: the run's state is `refold.run.state`, applying and judging a
baseline `refold.gate.judge`, replay files in a run `refold.records.replaying`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from ..dialects import DEFAULT_DIALECT, DIALECTS, EVERY_RULE, Dialect
from ..errors import UsageError
from ..gate.fail_on import FailedReports, fail_on_notes, fail_on_of, settle_exit_status
from ..gate.judge import apply_claims, expect_known_crash, judge_session, masked_rules
from ..records.replaying import (
    record_failures,
    replay_lines,
    run_replayed,
    select_replayed,
    write_rule_replays,
)
from ..records.results import FINGERPRINTS_PROPERTY, TEST_PROPERTY, RuleResults, recorded_property
from ..targets import DEFAULT_MAX_REPLY, Target, forms_help
from .check_kinds import check_for
from .checks import Check, conformance_failures, dialect_of_rules, first_conformance_failure
from .completion import CompletionWatch
from .console import escape_report, printable
from .console_summary import (
    COMPACT,
    render_headline,
    render_unruled_failures,
    use_compact_console,
    write_failed_rules,
)
from .locations import hosts_suites_of, is_generic_suite, suites_dialect, suites_dir
from .marks import rules_of_item
from .preflight import check_pytest_options
from .profiles import (
    DEFAULT_SHRINK_SECONDS,
    DEV_SHRINK_SECONDS,
    default_shrink_seconds,
    limit_shrinking,
    limit_shrinking_to_option,
    register_profiles,
    relax_default_deadline,
)
from .rule_selection import selected_rules
from .search import UNSHRUNK, explain_shrink_stop, properties_last, run_as_needed
from .state import (
    RunState,
    as_usage_error,
    close_target,
    dialect_of,
    end_targets,
    has_run,
    item_test_id,
    recorded_dialects,
    recorded_results,
    results_of,
    run_of,
    settle_dialect,
    start_results,
    start_run,
    target_of,
    write_run_report,
)

register_profiles()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("refold", "refold conformance suite")
    group.addoption("--target", default=None, metavar="TARGET", help=forms_help())
    group.addoption(
        "--dialect",
        default=None,
        metavar="NAME",
        help="the stream dialect to check: "
        + ", ".join(DIALECTS)
        + f" (default: the target's declaration, else {DEFAULT_DIALECT})",
    )
    group.addoption(
        "--features",
        default=None,
        metavar="A,B,C",
        help="features the target claims (default: all its interface supports)",
    )
    group.addoption(
        "--rules",
        default=None,
        metavar="ID,ID",
        help="run only the tests that check at least one of these rules",
    )
    group.addoption(
        "--target-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="deadline of every call into the target (default 5; none with --in-process)",
    )
    group.addoption(
        "--target-max-reply",
        type=int,
        default=DEFAULT_MAX_REPLY,
        metavar="BYTES",
        help=f"largest reply accepted from a target out of this process "
        f"(default {DEFAULT_MAX_REPLY}, 64 MiB)",
    )
    group.addoption(
        "--in-process",
        action="store_true",
        default=False,
        help="debugging: run a Python target in pytest's own process (no deadline; "
        "a crash, exit or patch by the target takes the run with it)",
    )
    group.addoption(
        "--baseline",
        default=None,
        metavar="FILE",
        help="TOML baseline: claimed features, expected failures, skips",
    )
    group.addoption(
        "--refold-report", default=None, metavar="FILE", help="write the results by rule as JSON"
    )
    group.addoption(
        "--replay",
        default=None,
        metavar="FILE",
        help="re-run the failure recorded in a replay file",
    )
    group.addoption(
        "--shrink-seconds",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop shrinking a failing example after SECONDS (default in a "
        f"refold run: {DEFAULT_SHRINK_SECONDS:g}, {DEV_SHRINK_SECONDS:g} with the "
        "dev profile; Hypothesis's own: 300)",
    )
    group.addoption(
        "--draws",
        default=None,
        choices=("fixed", "profile"),
        help="fixed: derandomized, no example database, the same examples every "
        "run (the default with --baseline); profile: as the profile says",
    )
    group.addoption(
        "--corpus",
        default=None,
        metavar="DIR",
        help="replay the recorded cases of a corpus folder (refold capture)",
    )
    group.addoption(
        "--replay-dir",
        default="refold-replays",
        metavar="DIR",
        help="where failures write replay files (default ./refold-replays; "
        "an empty value writes none)",
    )
    group.addoption(
        "--fail-on",
        default=None,
        metavar="SHAPE",
        help="documented, observed or synthetic: the failures that make the exit "
        "status non-zero, by their rule's found_on (default: the baseline's, "
        "else synthetic, every failure)",
    )
    _add_confinement_options(group)


def _add_confinement_options(group: Any) -> None:
    """The options of what a target may reach (`refold.targets.confinement`) and claim."""
    group.addoption(
        "--pass-env",
        action="append",
        default=None,
        metavar="NAME",
        help="pass the environment variable NAME to the target besides the "
        'allowlist (repeatable; docs/protocol.md, "Confinement")',
    )
    group.addoption(
        "--target-memory",
        default=None,
        metavar="SIZE",
        help="address-space limit of every target process, e.g. 512M or 4G "
        "(default 2G; `none`: no limit)",
    )
    group.addoption(
        "--accept-projection",
        action="store_true",
        default=False,
        help="accept a target's stated projection that leaves rules of its "
        "claimed features not judged",
    )


@pytest.hookimpl(trylast=True)  # after Hypothesis's plugin loaded --hypothesis-profile
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rule(*ids, features): the spec (or sse wire) rules a conformance test checks"
    )
    results = start_results(config)
    try:
        check_pytest_options(
            config.getoption,
            refold_run=bool(
                config.getoption("target")
                or config.getoption("baseline")
                or config.getoption("replay")
                or config.getoption("corpus")
            ),
        )
        limit_shrinking_to_option(config.getoption("shrink_seconds"))
    except UsageError as exc:
        raise as_usage_error(exc) from exc
    run = start_run(config)
    if run.named(config):
        use_compact_console(config)
    _confine(config)
    config.pluginmanager.register(_ResultRecorder(results), "refold-results")
    config.pluginmanager.register(FailedReports(), "refold-fail-on")
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(CompletionWatch(), "refold-completion")
    if run.named(config) and config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = [str(_installed_suites())]  # another dialect's suites are ignored
        run.installed_suites = True
        if run.corpus is not None:
            from ..capture.corpus_run import corpus_suite

            config.args = [str(corpus_suite())]


def _confine(config: pytest.Config) -> None:
    """The confinement of this run's target processes, from its options."""
    from ..targets.confinement import Confinement, configure, parse_memory, passed_names

    try:
        configure(
            Confinement(
                memory=parse_memory(config.getoption("target_memory")),
                pass_env=passed_names(config.getoption("pass_env")),
            )
        )
    except UsageError as exc:
        raise as_usage_error(exc) from exc


def _installed_suites() -> Path:
    """The installed suites' folder, found without importing them (pytest imports them)."""
    try:
        return suites_dir()
    except LookupError as exc:
        raise pytest.UsageError(f"{exc}: reinstall refold") from exc


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    _without_kitless_generic_tests(items)
    marked = [(item, rules_of_item(item)) for item in items]
    marked = [(item, rules) for item, rules in marked if rules]
    if not marked:
        return
    settle_dialect(config, {dialect_of_rules(rules) for _, rules in marked})
    marked = _of_the_runs_dialect(items, marked, target_of(config).dialect, run_of(config))
    marked = _of_the_selected_rules(config, items, marked)
    relax_default_deadline()
    if config.getoption("shrink_seconds") is None:
        with contextlib.suppress(RuntimeError):  # a Hypothesis without the cap: its own
            limit_shrinking(default_shrink_seconds())
    properties_last(items)
    target, run = target_of(config), run_of(config)
    for item, rules in marked:
        features = tuple(dict.fromkeys(EVERY_RULE[r].feature for r in rules))
        item.user_properties.append(("rules", " ".join(rules)))
        item.user_properties.append(("features", " ".join(features)))
        item.user_properties.append((TEST_PROPERTY, item_test_id(item)))
        apply_claims(item, rules, features, target, run.baseline)
    if run.replay is not None:
        select_replayed(config, items, run.replay)


_Marked = list[tuple[pytest.Item, tuple[str, ...]]]


def _without_kitless_generic_tests(items: list[pytest.Item]) -> None:
    """Leave out a generic suite's test that the run's dialect's suite kit has no case
    of (`refold.suites._kits`: an empty parameter set, so no rule mark): it is not a test
    of this run, as another dialect's suite is not."""
    kitless = [
        item for item in items if not rules_of_item(item) and is_generic_suite(Path(str(item.path)))
    ]
    if kitless:
        gone = set(kitless)
        items[:] = [item for item in items if item not in gone]


def _of_the_runs_dialect(
    items: list[pytest.Item], marked: _Marked, dialect: Dialect, run: RunState
) -> _Marked:
    """Keep only the tests of `dialect`: a target of one dialect is never run against
    another's suites. The others are not "deselected" (nothing chose to skip them): they
    are not this run's tests, as another dialect's suite folder is not collected; the
    terminal summary says how many there were, so none is mistaken for a pass."""
    foreign = {item for item, rules in marked if dialect_of_rules(rules) is not dialect}
    for _, rules in marked:
        other = dialect_of_rules(rules)
        if other is not dialect:
            run.other_dialects[other.name] = run.other_dialects.get(other.name, 0) + 1
    if foreign:
        items[:] = [item for item in items if item not in foreign]
    return [(item, rules) for item, rules in marked if item not in foreign]


def _of_the_selected_rules(
    config: pytest.Config, items: list[pytest.Item], marked: _Marked
) -> _Marked:
    """Keep only the tests of `--rules`, when given; the others are deselected."""
    try:
        only = selected_rules(config.getoption("rules"), target_of(config).dialect)
    except UsageError as exc:
        raise as_usage_error(exc) from exc
    if only is None:
        return marked
    dropped = [item for item, rules in marked if not only.intersection(rules)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        gone = set(dropped)
        items[:] = [item for item in items if item not in gone]
    return [(item, rules) for item, rules in marked if only.intersection(rules)]


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Another dialect's suites are not collected when the run's dialect is known before
    collection (`--dialect`, a baseline's, a replay file's), or when the plugin chose the
    installed suites itself (`pytest --target=...` without test paths): the target's
    dialect then decides; nor are the generic suites for a dialect without a suite kit."""
    if not has_run(config):
        return None
    run = run_of(config)
    from ..capture.corpus_run import is_corpus_suite

    if is_corpus_suite(collection_path):
        return None if run.corpus is not None else True  # its cases are a corpus's
    if run.dialect is None and not run.installed_suites:
        return None
    owner, checked = suites_dialect(collection_path), run.dialect or target_of(config).dialect
    if owner is None:  # a generic suite is collected for a dialect with a suite kit
        return True if checked.kit is None and is_generic_suite(collection_path) else None
    if owner is not checked and hosts_suites_of(collection_path, checked):
        return None  # another dialect's suites, holding some of this one's
    return True if owner is not checked else None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The corpus suite's `corpus_case`: one test per case file of `--corpus`."""
    from ..capture.corpus_run import CORPUS_FIXTURE, corpus_parameters

    if CORPUS_FIXTURE not in metafunc.fixturenames:
        return
    run = run_of(metafunc.config)
    if run.corpus is None:
        raise pytest.UsageError(f"{metafunc.definition.nodeid} replays a corpus: give --corpus DIR")
    metafunc.parametrize(
        CORPUS_FIXTURE, corpus_parameters(run.corpus, metafunc.config.getoption("corpus"))
    )


def pytest_deselected(items: list[pytest.Item]) -> None:
    """Note the rules of deselected tests: a rule not fully run is not judged stale."""
    for item in items:
        if has_run(item.config):
            run_of(item.config).deselected_rules.update(rules_of_item(item))


@pytest.fixture(scope="session")
def refold_target(pytestconfig: pytest.Config) -> Target:
    """The implementation under test (`--target`, the reference by default)."""
    return target_of(pytestconfig)


@pytest.fixture(scope="session")
def check(refold_target: Target) -> Check:
    """The suite's handle on the target, re-bound to each test's rules before it runs."""
    return check_for(refold_target)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    bound = getattr(item, "funcargs", {}).get("check")
    if isinstance(bound, Check):
        bound.rules = rules_of_item(item)
        bound.masked = masked_rules(run_of(item.config).baseline, bound.rules)
        bound.sent_wire = None
    try:
        return (yield)
    finally:
        if isinstance(bound, Check):
            bound.rules, bound.masked, bound.sent_wire = (), frozenset(), None


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Replay a recorded case instead of drawing new examples; else search a property
    only as far as the verdicts need (`refold.run.search`)."""
    if run_replayed(pyfuncitem):
        return True
    results = results_of(pyfuncitem.config)
    # A rule a baseline expects to fail (xfailed) has failed as much as a failed one: a
    # gate run searches its properties as the run that wrote the baseline did.
    return run_as_needed(
        pyfuncitem,
        lambda r: results.status(r) in ("failed", "xfailed"),
        first_conformance_failure,
        results.found_on,
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    exc = call.excinfo.value if call.excinfo else None
    failures = conformance_failures(exc) if exc is not None else []
    if call.when == "call":
        from ..verdicts.crashes import analyse
        from ..verdicts.diagnosis import diagnosis_of
        from ..verdicts.difference_ablation import ablate
        from ..verdicts.undone import report_on_undone

        # Once per failed test, before its report renders the message: not on every
        # example Hypothesis tries while shrinking.
        for found in failures:
            if found.crash is not None:
                analyse(found.crash, found.chunks or [], target_of(item.config))
            elif found.differences and found.chunks and found.ablation is None:
                found.ablation = ablate(
                    found.chunks, found.differences, target_of(item.config), found.claimed
                )
            report_on_undone(
                found,
                target_of(item.config),
                rules=rules_of_item(item),
                masked=masked_rules(run_of(item.config).baseline, rules_of_item(item)),
            )
            if found.diagnosis is None:
                found.diagnosis = diagnosis_of(found, target_of(item.config))
    if call.when == "call" and exc is not None and rules_of_item(item):
        from hypothesis.internal.conjecture import engine

        explain_shrink_stop(
            item, None if item.stash.get(UNSHRUNK, False) else engine.MAX_SHRINKING_SECONDS
        )
    report = yield
    if report.failed and rules_of_item(item):
        escape_report(report)  # the traceback quotes what the target raised
    if call.when == "call" and exc is not None and (report.failed or hasattr(report, "wasxfail")):
        from ..verdicts.fingerprints import fingerprints_of

        report.user_properties.append(
            (
                FINGERPRINTS_PROPERTY,
                fingerprints_of(exc, test=item_test_id(item), rules=rules_of_item(item)),
            )
        )
    if failures and call.when == "call":
        implicated = record_failures(item, report, failures, exc)
        expect_known_crash(run_of(item.config).baseline, report, failures, implicated)
    return report


class _ResultRecorder:
    """Collects one outcome per rule; on xdist this runs on the controller."""

    def __init__(self, results: RuleResults) -> None:
        self.results = results

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        rules = recorded_property(report, "rules")
        if rules:
            self.results.record(report, str(rules).split())


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    run = run_of(config)
    return run.header(target_of(config)) if run.named(config) else None


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if not has_run(config):
        return
    destination = config.getoption("refold_report")
    if hasattr(config, "workerinput"):
        end_targets(config, load=False)
        return  # an xdist worker: the controller judges the run and writes the report
    run, results = run_of(config), results_of(config)
    if run.baseline is not None:
        replays = None
        with contextlib.suppress(UsageError, pytest.UsageError):  # no target, no replay
            replays = target_of(config) if run.baseline.streams else None
        run.stale += judge_session(
            session,
            run.baseline,
            results,
            target=replays,
            deselected_rules=frozenset(run.deselected_rules),
        )
        if run.claim_verdicts and session.exitstatus in (
            pytest.ExitCode.OK,
            pytest.ExitCode.NO_TESTS_COLLECTED,
        ):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        run.stale += run.claim_verdicts
    # Nothing a target started may touch what is written from here on (the report's
    # target is loaded first: the xdist controller loads it only to name it); the gate's
    # replays of recorded streams, above, were its last calls.
    end_targets(config, load=bool(destination))
    run.replays = write_rule_replays(config, results)
    counter = _failed_reports(config)
    counter.notes = settle_exit_status(
        session, results, fail_on_of(config.getoption("fail_on"), run.baseline), counter
    )
    if destination and results.by_rule:
        write_run_report(config, run, results, Path(destination))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if config.stash.get(COMPACT, False):  # pytest's own sections are off: say what failed
        terminalreporter.write(render_unruled_failures(terminalreporter.stats.get("failed", [])))
    results = recorded_results(config)
    if results is None or not results.by_rule:
        return
    from ..gate.judge import settings_notes
    from .table import render_rule_table

    settle_dialect(config, recorded_dialects(results))  # the xdist controller collected none
    run = run_of(config)
    document = _summary_document(config, results)
    if config.stash.get(COMPACT, False):
        write_failed_rules(terminalreporter, document, run.target_spec(config))
    terminalreporter.section("refold: results by feature and rule")
    terminalreporter.write(
        render_rule_table(results, color=terminalreporter.hasmarkup, dialect=dialect_of(config))
    )
    terminalreporter.write(render_headline(document))
    for note in settings_notes(run.baseline, run.gate):
        terminalreporter.write_line(note, yellow=True, bold=True)
    for message in run.stale:
        terminalreporter.write_line(printable(message), red=True, bold=True)
    if not config.stash.get(COMPACT, False):  # the compact blocks name each replay already
        for line in replay_lines(config, run.replays):
            terminalreporter.write_line(printable(line))
    for note in [
        *fail_on_notes(config.getoption("fail_on"), run.baseline),
        *_failed_reports(config).notes,
    ]:
        terminalreporter.write_line(printable(note), yellow=True, bold=True)
    for name, count in run.other_dialects.items():
        how = (
            f"refold check --corpus with the reference runs each dialect in turn, or "
            f"--dialect {name}"
            if run.corpus is not None
            else f"run them with --dialect {name}"
        )
        terminalreporter.write_line(
            f"refold: {count} collected tests of dialect {name} were not run: a run checks "
            f"one dialect ({dialect_of(config).name}); {how}",
            yellow=True,
        )


def _summary_document(config: pytest.Config, results: RuleResults) -> dict[str, Any]:
    """The run's results as the results JSON holds them: what the console shows is what
    the reports show (this machine's canaries hidden, its paths relative to named roots)."""
    from ..records.redaction import redact
    from ..records.report import build_report

    document: dict[str, Any] = redact(
        build_report(
            results,
            target=target_of(config),
            started=run_of(config).started,
            duration_seconds=0.0,
            hypothesis_profile="",
            dialect=dialect_of(config),
        )
    )
    return document


def _failed_reports(config: pytest.Config) -> FailedReports:
    found = config.pluginmanager.get_plugin("refold-fail-on")
    return found if isinstance(found, FailedReports) else FailedReports()


def pytest_unconfigure(config: pytest.Config) -> None:
    close_target(config)
