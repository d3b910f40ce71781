"""Suite strength, shown for the Gemini dialect: the Gemini suite fails each broken
accumulator of `examples/broken/` on exactly the GM rules its defect breaks, and passes the
reference.

Each accumulator is checked the way a user checks a target: `pytest --target=<file>` in a
fresh process, from an empty directory, so the installed suites and plugin are what runs,
and the rules' statuses are read from the results file (`--refold-report`). Two checks:

* nightly (`pytest -m nightly`, minutes): the whole suite, rule examples and property
  suites, runs against each accumulator, so a test of another rule that the defect fails
  (a stream departing from Google's shape in a way that is not its own rule's, a pointer
  whose owners are too broad, a crash charged to the test's rules) is a failure here. A
  rule a crash kept from being checked is `blocked`, not failed (`refold.verdicts.crashes`); a
  difference a departure, or a kind of part, needs is charged to it
  (`refold.verdicts.difference_ablation`, `refold.dialects.gemini._part_probes`);
* commit time (seconds): only the rule examples marked with at least one of the
  accumulator's rules run, and they fail exactly those rules (the hand-written streams
  that show each defect, with every other rule those tests name charged nothing).

The ci profile is derandomized, so the sets are the same on every run; the accumulators
run two at a time (two cores).
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from _suite_runs import SuiteRun, run_suites
from test_broken_gemini_accumulators import EXPECTED_FAILURES

from refold.reference.gemini import RULES

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"
_DIALECT = "gemini-generate-content"
_CORRECT = {"reference": "reference"}
"""Folds that pass the whole suite. The base every broken one subclasses
(`_gemini_fold.py`) is held to the reference by
tests/dialects/test_broken_base_folds.py instead: one more whole run of
the suites here costs a minute."""

NOT_YET_EXACT: dict[str, str] = {}
"""Accumulators the rule examples of their rules do not yet fail on exactly their own rules
(measured with the ci profile), and why: each is expected to fail both checks (strict),
until the suite has the example or the charge is narrowed."""

NOT_YET_EXACT_NIGHTLY: dict[str, str] = {**NOT_YET_EXACT}
"""The same for the whole suite nightly (measured with the ci profile, 2026-12-07)."""

_ONLY_RULES = '''
"""Run only the rule examples marked with a rule of REFOLD_ONLY_RULES."""
import os

_ONLY = set(os.environ["REFOLD_ONLY_RULES"].split())


def pytest_collection_modifyitems(config, items):
    def wanted(item):
        rules = {r for mark in item.iter_markers("rule") for r in mark.args}
        return "rule_examples" in item.nodeid and rules & _ONLY
    dropped = [item for item in items if not wanted(item)]
    config.hook.pytest_deselected(items=dropped)
    items[:] = [item for item in items if wanted(item)]
'''


def _cases(not_yet_exact: dict[str, str]) -> list[Any]:
    return [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=not_yet_exact[name]))
        if name in not_yet_exact
        else name
        for name in sorted(EXPECTED_FAILURES)
    ]


def _assert_exactly(run: SuiteRun, name: str) -> None:
    failed = run.rules_with("failed")
    expected = EXPECTED_FAILURES[name]
    assert failed == expected, (
        f"{name}: failed {sorted(failed)}; expected {sorted(expected)} (missed "
        f"{sorted(expected - failed)}, also failed {sorted(failed - expected)}):\n{run.tail()}"
    )
    assert run.exit_code == 1, f"{name}: pytest exited {run.exit_code}:\n{run.tail()}"


@pytest.fixture(scope="module")
def gemini_runs(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, Future[SuiteRun]]]:
    """Every whole-suite run, started at once two at a time (two cores)."""
    root = tmp_path_factory.mktemp("gemini-runs")
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {
            name: pool.submit(run_suites, str(_BROKEN / f"{name}.py"), _DIALECT, root / name)
            for name in sorted(EXPECTED_FAILURES)
        }
        for correct, target in _CORRECT.items():
            runs[correct] = pool.submit(run_suites, target, _DIALECT, root / correct)
        yield runs


@pytest.mark.nightly
@pytest.mark.parametrize("name", _cases(NOT_YET_EXACT_NIGHTLY))
def test_the_whole_suite_fails_each_broken_accumulator_on_exactly_its_rules(
    gemini_runs: dict[str, Future[SuiteRun]],
    name: str,
) -> None:
    run = gemini_runs[name].result()
    assert set(run.statuses) == set(RULES), (
        f"{name}: the results name other rules (exit {run.exit_code}):\n{run.tail()}"
    )
    _assert_exactly(run, name)


@pytest.mark.nightly
@pytest.mark.parametrize("correct", sorted(_CORRECT))
def test_the_reference_passes_the_whole_gemini_suite(
    gemini_runs: dict[str, Future[SuiteRun]],
    correct: str,
) -> None:
    run = gemini_runs[correct].result()
    assert run.exit_code == 0, f"the {correct} run exited {run.exit_code}:\n{run.tail()}"
    every_expected_rule = frozenset().union(*EXPECTED_FAILURES.values())
    assert every_expected_rule <= run.rules_with("passed"), (
        f"no passing test checks {sorted(every_expected_rule - run.rules_with('passed'))}"
    )
    assert not run.rules_with("failed") | run.rules_with("blocked"), run.tail()


@pytest.fixture(scope="module")
def rule_example_runs(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, Future[SuiteRun]]]:
    """Each accumulator against the rule examples of its own rules, two at a time."""
    root = tmp_path_factory.mktemp("gemini-rule-examples")
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {}
        for name, rules in sorted(EXPECTED_FAILURES.items()):
            workdir = root / name
            plugin = root / "plugins" / name
            plugin.mkdir(parents=True)
            (plugin / "refold_only_rules.py").write_text(_ONLY_RULES)
            runs[name] = pool.submit(
                run_suites,
                str(_BROKEN / f"{name}.py"),
                _DIALECT,
                workdir,
                extra=("-p", "refold_only_rules"),
                environment={"PYTHONPATH": str(plugin), "REFOLD_ONLY_RULES": " ".join(rules)},
            )
        yield runs


@pytest.mark.parametrize("name", _cases(NOT_YET_EXACT))
def test_the_rule_examples_of_its_rules_fail_each_broken_accumulator_on_exactly_them(
    rule_example_runs: dict[str, Future[SuiteRun]],
    name: str,
) -> None:
    _assert_exactly(rule_example_runs[name].result(), name)
