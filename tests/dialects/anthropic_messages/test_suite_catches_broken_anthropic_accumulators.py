"""Suite strength, shown for the Anthropic dialect: the whole Anthropic suite (rule
examples and property suites) fails each broken accumulator of `examples/broken/` on
exactly the AM rules its defect breaks, and passes the reference and the correct fold they
all subclass (`_anthropic_fold.py`).

Each accumulator is checked the way a user checks a target: `pytest --target=<file>` in a
fresh process, from an empty directory, so the installed suites and plugin are what runs,
and the rules' statuses are read from the results file (`--refold-report`). Unlike the chat
counterpart every test runs, not only those of the expected rules: the assertion is about
the exact set of failed rules, so a test of another rule that the defect fails (a stream
departing from the plain shape in a way that is not its own rule's, a pointer whose owners
are too broad, a crash charged to the test's rules) is a failure here. A rule a crash kept
from being checked is `blocked`, not failed (`refold.verdicts.crashes`).

The ci profile is derandomized, so the sets are the same on every run; the accumulators
run two at a time (two cores).

Two tiers. At commit time each accumulator runs only the tests of its own rules
(`--rules`): the suite catches it, on every one of them. The exact set, which needs every
test of the suite run against each of the fourteen (about eight minutes of two cores), is
`nightly` (`pytest -m nightly`, the nightly workflow). The reference runs the whole suite
at both.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from _suite_runs import SuiteRun, started_runs
from test_broken_anthropic_accumulators import EXPECTED_FAILURES

from refold.reference.anthropic import RULES

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"
_DIALECT = "anthropic-messages"
_CORRECT = {"reference": "reference"}
"""Folds that pass the whole suite. The base every broken one subclasses
(`_anthropic_fold.py`) is held to the reference by tests/dialects/test_broken_base_folds.py instead:
one more whole run of the suites here costs CI a minute."""

NOT_YET_EXACT: dict[str, str] = {}
"""Accumulators the suite still fails on more rules than their own (measured with the ci
profile), and why: each is expected to fail this test (strict), until fixed."""


ONLY_BESIDE_ANOTHER_RULE: dict[str, frozenset[str]] = {
    # Routing a delta by the block's position is routing it by its index whenever blocks
    # open in index order, once each: every stream that shows this defect as AM-DELTA-ROUTE
    # also departs as AM-BLOCK-ORDER or AM-BLOCK-REOPEN, and the differential tests of all
    # three shrink to whichever such stream comes first. So the tests of its three rules
    # may charge it to the other two only; the whole suite (the nightly exact test below,
    # and `refold check` on the example) fails it on all three.
    "anthropic_routes_by_position": frozenset({"AM-DELTA-ROUTE"}),
}
"""Rules of an accumulator's set that only the whole suite is sure to charge, and why."""


def _cases() -> list[Any]:
    return [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=NOT_YET_EXACT[name]))
        if name in NOT_YET_EXACT
        else name
        for name in sorted(EXPECTED_FAILURES)
    ]


@pytest.fixture(scope="module")
def rule_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Future[SuiteRun]]]:
    """Each accumulator on the tests of its own rules, and the reference on the whole suite."""
    root = tmp_path_factory.mktemp("anthropic-rule-runs")
    with started_runs(
        _DIALECT,
        root,
        {
            **{
                name: (str(_BROKEN / f"{name}.py"), EXPECTED_FAILURES[name])
                for name in sorted(EXPECTED_FAILURES)
            },
            **{correct: (target, None) for correct, target in _CORRECT.items()},
        },
    ) as runs:
        yield runs


@pytest.fixture(scope="module")
def whole_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Future[SuiteRun]]]:
    """Each accumulator on the whole suite (nightly)."""
    root = tmp_path_factory.mktemp("anthropic-whole-runs")
    with started_runs(
        _DIALECT,
        root,
        {name: (str(_BROKEN / f"{name}.py"), None) for name in sorted(EXPECTED_FAILURES)},
    ) as runs:
        yield runs


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_the_tests_of_each_broken_accumulators_rules_fail_it_on_every_one_of_them(
    rule_runs: dict[str, Future[SuiteRun]],
    name: str,
) -> None:
    run = rule_runs[name].result()
    expected = EXPECTED_FAILURES[name] - ONLY_BESIDE_ANOTHER_RULE.get(name, frozenset())
    failed = run.rules_with("failed")
    assert expected <= failed, (
        f"{name}: the tests of {sorted(expected)} failed only {sorted(failed)} (missed "
        f"{sorted(expected - failed)}):\n{run.tail()}"
    )
    assert run.exit_code == 1, f"{name}: pytest exited {run.exit_code}:\n{run.tail()}"


@pytest.mark.nightly
@pytest.mark.parametrize("name", _cases())
def test_the_suite_fails_each_broken_accumulator_on_exactly_its_rules(
    whole_runs: dict[str, Future[SuiteRun]],
    name: str,
) -> None:
    run = whole_runs[name].result()
    assert set(run.statuses) == set(RULES), (
        f"{name}: the results name other rules (exit {run.exit_code}):\n{run.tail()}"
    )
    failed = run.rules_with("failed")
    expected = EXPECTED_FAILURES[name]
    assert failed == expected, (
        f"{name}: failed {sorted(failed)}; expected {sorted(expected)} (missed "
        f"{sorted(expected - failed)}, also failed {sorted(failed - expected)}):\n{run.tail()}"
    )
    assert run.exit_code == 1, f"{name}: pytest exited {run.exit_code}:\n{run.tail()}"


@pytest.mark.parametrize("correct", sorted(_CORRECT))
def test_the_reference_and_the_base_fold_pass_the_whole_anthropic_suite(
    rule_runs: dict[str, Future[SuiteRun]],
    correct: str,
) -> None:
    run = rule_runs[correct].result()
    assert run.exit_code == 0, f"the {correct} run exited {run.exit_code}:\n{run.tail()}"
    every_expected_rule = frozenset().union(*EXPECTED_FAILURES.values())
    assert every_expected_rule <= run.rules_with("passed"), (
        f"no passing test checks {sorted(every_expected_rule - run.rules_with('passed'))}"
    )
    assert not run.rules_with("failed") | run.rules_with("blocked"), run.tail()
