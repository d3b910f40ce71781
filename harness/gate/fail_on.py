"""`--fail-on documented|observed|synthetic`: which failures make a run's exit status non-zero.

A failure counts when its rule's `found_on` (the least departing shape it failed on,
verdicts.md §2) is at or below the value in `refold.reference.SHAPES` order: with
`documented`, only rules that fail on streams in the provider's documented shape fail
the run; with `synthetic` (the default) every failure does. A failure whose shape is not
known (a test that is not a conformance check, an error in setup, a stale baseline entry)
always counts: the gate never lets a failure it cannot place pass.

The value is the option's, else the baseline's (`fail_on`, the value it was written
with), else `synthetic`. When the option and the baseline disagree the option wins (a
release manager tightening or loosening one run on purpose) and the run says so
(`fail_on_notes`). The run's failures are reported whatever the value: it decides only
the exit status, and the run says which failures it let pass.
"""

from __future__ import annotations

from typing import Any

import pytest

from refold.reference import SHAPES, Shape

from ..records.results import RuleOutcome, RuleResults, recorded_property
from .baseline import Baseline

__all__ = [
    "DEFAULT_FAIL_ON",
    "FailedReports",
    "counts",
    "fail_on_notes",
    "fail_on_of",
    "rule_found_on",
    "settle_exit_status",
]

DEFAULT_FAIL_ON: Shape = "synthetic"
"""Every failure counts."""


def fail_on_of(option: str | None, baseline: Baseline | None) -> Shape:
    """The run's value: `--fail-on`, else the baseline's, else `DEFAULT_FAIL_ON`."""
    if option in SHAPES:
        return option
    if baseline is not None and baseline.fail_on is not None:
        return baseline.fail_on
    return DEFAULT_FAIL_ON


def fail_on_notes(option: str | None, baseline: Baseline | None) -> list[str]:
    """A line when `--fail-on` overrides the value the baseline was written with."""
    if option is None or baseline is None or baseline.fail_on in (None, option):
        return []
    return [
        f"refold fail-on: this run fails on {option} streams (--fail-on {option}); "
        f"{baseline.path} was written with fail_on = {baseline.fail_on!r}, which this "
        f"run does not use; rewrite the baseline with --fail-on {option} to keep it"
    ]


def counts(shape: Shape | None, fail_on: Shape) -> bool:
    """Whether a failure found on `shape` (None: not known) fails a run of `fail_on`."""
    return shape is None or SHAPES.index(shape) <= SHAPES.index(fail_on)


def rule_found_on(outcome: RuleOutcome) -> Shape | None:
    """A failed rule's `found_on`: the outcome's own, when it carries one, else the
    `shape` of its failure record (`refold.reference.FailureRecord`); None: not known."""
    found: Any = getattr(outcome, "found_on", None)  # a RuleOutcome that carries its own
    for known in SHAPES:
        if found == known:
            return known
    return outcome.failure.get("shape") if outcome.failure else None


class FailedReports:
    """Counts the failed test reports that name no refold rule (they always count), and
    holds the lines `settle_exit_status` said, for the terminal summary."""

    def __init__(self) -> None:
        self.without_rules = 0
        self.notes: list[str] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed and not recorded_property(report, "rules"):
            self.without_rules += 1


def settle_exit_status(
    session: pytest.Session, results: RuleResults, fail_on: Shape, failed: FailedReports | None
) -> list[str]:
    """Let a run whose every failure lies beyond `fail_on` exit 0; the lines saying which
    failed rules did not count ([] when none was let pass)."""
    beyond = _beyond(results, fail_on)
    if not beyond:
        return []
    counted = [
        r
        for r, o in results.by_rule.items()
        if o.status == "failed" and counts(rule_found_on(o), fail_on)
    ]
    named = ", ".join(f"{rule_id} ({shape})" for rule_id, shape in beyond)
    if counted or (failed is not None and failed.without_rules):
        return [
            f"refold fail-on {fail_on}: {named} fail only on more departing streams "
            f"and do not count; the run fails for the others"
        ]
    if session.exitstatus == pytest.ExitCode.TESTS_FAILED:
        session.exitstatus = pytest.ExitCode.OK
    return [
        f"refold fail-on {fail_on}: {named} fail only on more departing streams than "
        f"{fail_on} ones, so they do not fail the run (exit 0); --fail-on synthetic "
        f"counts every failure"
    ]


def _beyond(results: RuleResults, fail_on: Shape) -> list[tuple[str, Any]]:
    found = []
    for rule_id in sorted(results.by_rule):
        outcome = results.by_rule[rule_id]
        shape = rule_found_on(outcome) if outcome.status == "failed" else None
        if outcome.status == "failed" and not counts(shape, fail_on):
            found.append((rule_id, shape))
    return found
