"""Outcomes by rule: what a run says about each rule id of the spec.

A rule's status is the worst outcome of the tests that check it: failed, then xfailed,
then passed, then skipped. Rules no collected test checks are "not run". Outcomes are
built from test reports alone (their `user_properties` carry the rule ids and, for a
conformance failure, its structured details), so under pytest-xdist the controller
sees everything the workers saw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from .replay import decode_failure

__all__ = ["FAILURE_PROPERTY", "IMPLICATED_PROPERTY", "STATUSES", "RuleOutcome", "RuleResults"]

STATUSES = ("failed", "xfailed", "passed", "skipped", "not run")
"""From worst to best; a rule takes the worst status among its tests."""

FAILURE_PROPERTY = "refold_failure"
"""The user property holding a conformance failure's details, as JSON text
(`refold.replay.encode_failure`: plain and bounded, so it crosses from an xdist worker)."""

IMPLICATED_PROPERTY = "refold_implicated"
"""The user property naming the rules a conformance failure is evidence against."""

_MESSAGE_LIMIT = 4000


@dataclass
class RuleOutcome:
    """The aggregated result of one rule."""

    status: str = "not run"
    tests: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    first_failure: str | None = None
    failure: dict[str, Any] | None = None
    skip_reason: str | None = None
    xfail_reason: str | None = None

    def add(self, status: str, *, message: str | None = None,
            failure: dict[str, Any] | None = None) -> None:
        """Fold one test's outcome into the rule's."""
        self.tests += 1
        self.counts[status] = self.counts.get(status, 0) + 1
        if STATUSES.index(status) < STATUSES.index(self.status):
            self.status = status
        if status == "failed" and self.first_failure is None:
            self.first_failure = message
            self.failure = failure
        if status == "skipped" and self.skip_reason is None:
            self.skip_reason = message
        if status == "xfailed" and self.xfail_reason is None:
            self.xfail_reason = message

    def mark_failed(self, reason: str) -> None:
        """The run judged this rule failed after its tests ran (a baseline's verdict)."""
        self.mark_stale(reason)

    def mark_stale(self, reason: str) -> None:
        """A baseline expected this rule to fail and none of its tests did."""
        self.status = "failed"
        self.first_failure = reason
        self.failure = {"message": reason, "chunks": None, "expected": None,
                        "received": None, "pointer": None}

    @property
    def reason(self) -> str | None:
        """Why the rule has its status: the skip or xfail reason, or the first failure."""
        if self.status == "skipped":
            return self.skip_reason
        if self.status == "xfailed":
            return self.xfail_reason
        if self.status == "failed" and self.first_failure:
            return self.first_failure.strip().splitlines()[0]
        return None


class RuleResults:
    """Outcomes keyed by rule id."""

    def __init__(self) -> None:
        self.by_rule: dict[str, RuleOutcome] = {}
        self.xfailed_implicated: list[tuple[str, set[str]]] = []

    def record(self, report: pytest.TestReport, rules: list[str]) -> None:
        """Record a test report for its rules (the call phase, or a skip/error).

        A conformance failure is charged to the rules it implicates (see
        `refold.attribution`); the test's other rules held in the failing example.
        """
        status = _status(report)
        if status is None:
            return
        properties = dict(report.user_properties)
        implicated = str(properties.get(IMPLICATED_PROPERTY, "")).split()
        if status in ("failed", "xfailed") and implicated:
            if status == "xfailed":
                self.xfailed_implicated.append((report.nodeid, set(implicated)))
            self._record(report, status, implicated)
            held = [r for r in rules if r not in implicated]
            if held:
                self._record_status(held, "passed", None, None)
            return
        self._record(report, status, rules)

    def _record(self, report: pytest.TestReport, status: str, rules: list[str]) -> None:
        message = _message(report, status)
        recorded = decode_failure(dict(report.user_properties).get(FAILURE_PROPERTY))
        failure: dict[str, Any] | None = None
        if status == "failed" and recorded is not None:
            failure = recorded
            message = str(recorded.get("message") or message)
        elif status == "failed":
            failure = {"message": message or "", "chunks": None, "expected": None,
                       "received": None, "pointer": None}
        self._record_status(rules, status, message, failure)

    def _record_status(self, rules: list[str], status: str, message: str | None,
                       failure: dict[str, Any] | None) -> None:
        for rule_id in rules:
            self.by_rule.setdefault(rule_id, RuleOutcome()).add(
                status, message=message, failure=failure)

    def status(self, rule_id: str) -> str:
        """The rule's aggregated status ("not run" if no test reported on it)."""
        outcome = self.by_rule.get(rule_id)
        return outcome.status if outcome else "not run"


def _status(report: pytest.TestReport) -> str | None:
    if report.when == "call":
        if hasattr(report, "wasxfail"):
            # A non-strict xfail that passed is a pass; the baseline judges staleness.
            return "xfailed" if report.skipped else "passed" if report.passed else "failed"
        return "passed" if report.passed else "failed" if report.failed else "skipped"
    if report.skipped:
        return "xfailed" if hasattr(report, "wasxfail") else "skipped"
    if report.failed:
        return "failed"  # an error in setup or teardown
    return None


def _message(report: pytest.TestReport, status: str) -> str | None:
    if status == "skipped" and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    if status == "xfailed":
        return str(getattr(report, "wasxfail", "")) or None
    if status == "failed":
        crash = getattr(report.longrepr, "reprcrash", None)
        text = str(getattr(crash, "message", "")) or report.longreprtext
        return text if len(text) <= _MESSAGE_LIMIT else text[:_MESSAGE_LIMIT] + "\n..."
    return None
