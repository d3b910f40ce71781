"""Outcomes by rule: what a run says about each rule id of the spec.

A rule's status is the worst outcome of the tests that check it: failed, then xfailed,
then passed, then skipped. Rules no collected test checks are "not run".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

__all__ = ["STATUSES", "RuleOutcome", "RuleResults"]

STATUSES = ("failed", "xfailed", "passed", "skipped", "not run")
"""From worst to best; a rule takes the worst status among its tests."""


@dataclass
class RuleOutcome:
    """The aggregated result of one rule."""

    status: str = "not run"
    tests: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    first_failure: str | None = None
    skip_reason: str | None = None

    def add(self, status: str, *, message: str | None = None) -> None:
        """Fold one test's outcome into the rule's."""
        self.tests += 1
        self.counts[status] = self.counts.get(status, 0) + 1
        if STATUSES.index(status) < STATUSES.index(self.status):
            self.status = status
        if status == "failed" and self.first_failure is None:
            self.first_failure = message
        if status == "skipped" and self.skip_reason is None:
            self.skip_reason = message


class RuleResults:
    """Outcomes keyed by rule id."""

    def __init__(self) -> None:
        self.by_rule: dict[str, RuleOutcome] = {}

    def record(self, report: pytest.TestReport, rules: list[str]) -> None:
        """Record a test report for each of its rules (the call phase, or a skip/error)."""
        status = _status(report)
        if status is None:
            return
        message = _message(report, status)
        for rule_id in rules:
            self.by_rule.setdefault(rule_id, RuleOutcome()).add(status, message=message)

    def status(self, rule_id: str) -> str:
        """The rule's aggregated status ("not run" if no test reported on it)."""
        outcome = self.by_rule.get(rule_id)
        return outcome.status if outcome else "not run"


def _status(report: pytest.TestReport) -> str | None:
    if report.when == "call":
        if hasattr(report, "wasxfail"):
            return "xfailed" if report.skipped else "failed"
        return "passed" if report.passed else "failed" if report.failed else "skipped"
    if report.skipped:
        return "xfailed" if hasattr(report, "wasxfail") else "skipped"
    if report.failed:
        return "failed"  # an error in setup or teardown
    return None


def _message(report: pytest.TestReport, status: str) -> str | None:
    if status == "skipped" and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    if status == "failed":
        return report.longreprtext
    return None
