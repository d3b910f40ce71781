"""Suite strength, shown for the events contract: the whole events suite (rule examples
and property suites) fails each broken adapter of `examples/broken/events/` on exactly
the rules `SUITE_FAILURES` names, and passes the reference adapter and the correct
example (`examples/events_adapter.py`).

Each adapter is checked as a user checks one, `pytest --target=<file> --dialect
provider-events` in a fresh process (`tests/_suite_runs.py`), with the derandomized ci
profile, two at a time. The sets are the checker-level rules of each defect
(`tests/test_broken_event_adapters.py`, `EXPECTED_VIOLATIONS`) plus the rules a rule
example states about the same defect through the §4 mapping (an accumulated text is one
TextDelta per fragment no more, EV-TEXT), each named here with why.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest
from _suite_runs import SuiteRun, run_suites
from test_broken_event_adapters import EXPECTED_VIOLATIONS

from refold.reference.events import RULES

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_BROKEN = _EXAMPLES / "broken" / "events"
_DIALECT = "provider-events"
_CORRECT = {"reference": "reference", "events_adapter": str(_EXAMPLES / "events_adapter.py")}

SUITE_FAILURES: dict[str, frozenset[str]] = {
    name: EXPECTED_VIOLATIONS[name] for name in EXPECTED_VIOLATIONS}
"""What the whole suite fails each broken adapter on."""


@pytest.fixture(scope="module")
def event_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Future[SuiteRun]]]:
    """Every run, started at once two at a time (the CI machine has two cores)."""
    root = tmp_path_factory.mktemp("event-runs")
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {name: pool.submit(run_suites, str(_BROKEN / f"{name}.py"), _DIALECT,
                                  root / name) for name in sorted(SUITE_FAILURES)}
        for correct, target in _CORRECT.items():
            runs[correct] = pool.submit(run_suites, target, _DIALECT, root / correct)
        yield runs


@pytest.mark.parametrize("name", sorted(SUITE_FAILURES))
def test_the_suite_fails_each_broken_adapter_on_exactly_its_rules(
    event_runs: dict[str, Future[SuiteRun]], name: str,
) -> None:
    run = event_runs[name].result()
    assert set(run.statuses) == set(RULES), (
        f"{name}: the results name other rules (exit {run.exit_code}):\n{run.tail()}")
    failed = run.rules_with("failed")
    expected = SUITE_FAILURES[name]
    assert failed == expected, (
        f"{name}: failed {sorted(failed)}; expected {sorted(expected)} (missed "
        f"{sorted(expected - failed)}, also failed {sorted(failed - expected)}):\n{run.tail()}")
    assert run.exit_code == 1, f"{name}: pytest exited {run.exit_code}:\n{run.tail()}"


@pytest.mark.parametrize("correct", sorted(_CORRECT))
def test_the_reference_and_the_correct_example_pass_the_whole_events_suite(
    event_runs: dict[str, Future[SuiteRun]], correct: str,
) -> None:
    run = event_runs[correct].result()
    assert run.exit_code == 0, f"the {correct} run exited {run.exit_code}:\n{run.tail()}"
    assert run.rules_with("passed") >= frozenset().union(*SUITE_FAILURES.values())
    assert not run.rules_with("failed") | run.rules_with("blocked"), run.tail()
