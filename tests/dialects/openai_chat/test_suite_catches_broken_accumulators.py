"""Suite strength, shown: the conformance suites fail every broken accumulator of
`examples/broken/` on the rules its bug breaks, and pass the reference and the correct
fold they all subclass (`_chat_fold.py`) on the same tests.

Each accumulator is checked the way a user checks a target: `pytest --target=<file>
--hypothesis-profile=ci` in a fresh process, from an empty directory, so the installed
suites and plugin are what runs. A tiny collector plugin written next to it records the
outcome of every rule-marked test as JSON.

Only the tests marked with at least one rule of the expected set run (the collector
deselects the others): they are the evidence the assertion needs, and a bug's collateral
failures elsewhere, which shrink slowly, would multiply the time by the number of
accumulators without telling anything new. The reference runs the union of those tests;
its whole-suite run is the project's own `pytest`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from refold.reference.chat import RULES

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"

EXPECTED_FAILURES: dict[str, frozenset[str]] = {
    "concatenate_repeated_strings": frozenset({"CHOICE-ROLE", "TOOL-NAME", "TOOL-5-APPEND"}),
    "sum_usage": frozenset({"USAGE-LAST"}),
    "choices_by_position": frozenset({"CHOICE-KEY", "CHOICE-ORDER"}),
    "merge_calls_sharing_index": frozenset(
        {"TOOL-2-NEW-ID", "TOOL-3-RESEND", "TOOL-4-SPLIT", "TOOL-NO-INDEX"}
    ),
    "index_less_fragments_at_zero": frozenset({"TOOL-NO-INDEX"}),
    "no_resend_detection": frozenset({"TOOL-3-RESEND", "TOOL-4-SPLIT"}),
    "usage_erased_by_null": frozenset({"USAGE-LAST"}),
    "crash_on_null_choice": frozenset({"ROB-NULL-ENTRIES", "ROB-WRONG-TYPE"}),
    "finish_erased_by_blank": frozenset({"CHOICE-FINISH", "ROB-BLANK", "LIFE-FINISHED"}),
    "empty_arguments_too_early": frozenset({"TOOL-EMPTY-ARGS"}),
    "live_snapshot": frozenset({"LIFE-SNAPSHOT"}),
}
"""Each broken accumulator and the rules its bug really breaks (see examples/broken/README.md)."""

_CORRECT = {"reference": "reference"}
"""Folds that pass every test. The base every broken one subclasses (`_chat_fold.py`) is
held to the reference by tests/dialects/test_broken_base_folds.py instead: one more run of the
suites here costs CI a minute."""

_COLLECTOR = '''
"""Record the outcome of every rule-marked test; run only the tests of REFOLD_ONLY_RULES."""
import json
import os

import pytest

_ONLY = set(os.environ.get("REFOLD_ONLY_RULES", "").split())
_OUTCOMES = {}


def _rules(item_or_report):
    return dict(item_or_report.user_properties).get("rules", "").split()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if not _ONLY:
        return
    dropped = [item for item in items if not _ONLY & set(_rules(item))]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if _ONLY & set(_rules(item))]


def pytest_runtest_logreport(report):
    rules = _rules(report)
    if not rules:
        return
    entry = _OUTCOMES.setdefault(report.nodeid, {"rules": rules, "outcome": "passed"})
    if report.failed:
        entry["outcome"] = "failed"
    elif report.skipped and entry["outcome"] == "passed":
        entry["outcome"] = "xfailed" if hasattr(report, "wasxfail") else "skipped"


def pytest_sessionfinish(session):
    if not hasattr(session.config, "workerinput"):
        with open(os.environ["REFOLD_OUTCOMES"], "w") as file:
            json.dump(_OUTCOMES, file)
'''


@dataclass(frozen=True)
class SuiteRun:
    """The outcome of one `pytest --target=...` run: per test, its rules and outcome."""

    target: str
    exit_code: int
    outcomes: dict[str, dict[str, object]]
    output: str

    def rules_with(self, outcome: str) -> set[str]:
        """The rules of every test that ended with `outcome`."""
        return {
            rule
            for entry in self.outcomes.values()
            if entry["outcome"] == outcome
            for rule in entry["rules"]
        }  # type: ignore[attr-defined]

    def tail(self, lines: int = 60) -> str:
        """The end of the run's output, for assertion messages."""
        return "\n".join(self.output.splitlines()[-lines:])


def run_suite(target: str, rules: frozenset[str], workdir: Path) -> SuiteRun:
    """Run the installed suites against `target`, only the tests marked with `rules`."""
    workdir.mkdir(parents=True)
    (workdir / "refold_outcomes.py").write_text(_COLLECTOR)
    outcomes_file = workdir / "outcomes.json"
    environment = {
        **os.environ,
        "PYTHONPATH": str(workdir),
        "REFOLD_OUTCOMES": str(outcomes_file),
        "REFOLD_ONLY_RULES": " ".join(sorted(rules)),
    }
    # In process: the examples are this repository's own code, so the worker process that
    # guards a run against a hostile target protects nothing here and costs a quarter of
    # the run (tests/harness/targets/test_target_isolation.py checks the isolated path).
    environment.pop("CI", None)  # the ci profile is chosen explicitly below
    command = [
        sys.executable,
        "-m",
        "pytest",
        f"--target={target}",
        "--in-process",
        "-p",
        "no:cacheprovider",
        "-p",
        "refold_outcomes",
        "-q",
        "--hypothesis-profile=ci",
    ]
    completed = subprocess.run(
        command,
        cwd=workdir,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    outcomes = json.loads(outcomes_file.read_text()) if outcomes_file.exists() else {}
    return SuiteRun(target, completed.returncode, outcomes, completed.stdout + completed.stderr)


@pytest.fixture(scope="module")
def suite_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Future[SuiteRun]]]:
    """Every run, started at once two at a time (the CI machine has two cores)."""
    root = tmp_path_factory.mktemp("suite-runs")
    every_expected_rule = frozenset().union(*EXPECTED_FAILURES.values())
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {
            name: pool.submit(run_suite, str(_BROKEN / f"{name}.py"), rules, root / name)
            for name, rules in EXPECTED_FAILURES.items()
        }
        for correct in _CORRECT:
            runs[correct] = pool.submit(
                run_suite, _CORRECT[correct], every_expected_rule, root / correct
            )
        yield runs


def test_every_broken_accumulator_has_an_expectation_naming_real_rules() -> None:
    # anthropic_*.py, responses_*.py and gemini_*.py are the other dialects' (tests/
    # dialects/<dialect>/test_broken_*_accumulators.py); _*.py are the correct folds the
    # broken ones subclass
    modules = {
        path.stem
        for path in _BROKEN.glob("*.py")
        if not path.stem.startswith(("anthropic_", "responses_", "gemini_", "_"))
    }
    assert modules == set(EXPECTED_FAILURES), (
        f"examples/broken/ holds {sorted(modules)}, EXPECTED_FAILURES names "
        f"{sorted(EXPECTED_FAILURES)}"
    )
    unknown = {r for rules in EXPECTED_FAILURES.values() for r in rules} - set(RULES)
    assert not unknown, f"EXPECTED_FAILURES names rules the spec does not have: {unknown}"


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_the_suite_fails_each_broken_accumulator_on_the_rules_its_bug_breaks(
    suite_runs: dict[str, Future[SuiteRun]], name: str
) -> None:
    run = suite_runs[name].result()
    expected = EXPECTED_FAILURES[name]
    assert run.outcomes, f"{name}: no rule-marked test ran (exit {run.exit_code}):\n{run.tail()}"
    missed = expected - run.rules_with("failed")
    assert not missed, (
        f"{name}: the suite did not fail rules {sorted(missed)}; it failed "
        f"{sorted(run.rules_with('failed'))} (exit {run.exit_code}):\n{run.tail()}"
    )
    assert run.exit_code == 1, f"{name}: pytest exited {run.exit_code}:\n{run.tail()}"


@pytest.mark.parametrize("correct", sorted(_CORRECT))
def test_the_reference_and_the_base_fold_pass_every_test_that_catches_a_broken_accumulator(
    suite_runs: dict[str, Future[SuiteRun]],
    correct: str,
) -> None:
    run = suite_runs[correct].result()
    every_expected_rule = frozenset().union(*EXPECTED_FAILURES.values())
    assert run.exit_code == 0 and not run.rules_with("failed"), (
        f"{correct} failed {sorted(run.rules_with('failed'))}:\n{run.tail()}"
    )
    assert every_expected_rule <= run.rules_with("passed"), (
        f"no passing test checks {sorted(every_expected_rule - run.rules_with('passed'))}"
    )
