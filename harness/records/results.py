"""Outcomes by rule: what a run says about each rule id of the spec.

A rule's status is the worst outcome of the tests that check it: failed, then xfailed,
then blocked, then not judged, then passed, then skipped (`refold.reference.STATUSES`, the
one vocabulary the results, the replay records and the reports share). Rules no collected
test checks are "not run".
A rule is *not judged* when the target states a projection (`refold.run.projection`) that
compares none of its places: a test of such rules only is skipped, and in a test that runs
for its other rules the rule neither passes nor fails (unless a failure is charged to it).
It ranks above passed, since a rule no test could judge has not passed.
A rule is *blocked* when a test of it crashed and the crash was charged to another rule
(`refold.verdicts.crashes`): the test gave no evidence about it either way. Blocked is below
xfailed, since a known failure of the rule itself says more about it than a check that
could not run, and above passed, since a check that could not run is not a pass; any
test with direct evidence against the rule makes it failed. Outcomes are
built from test reports alone (their `user_properties` carry the rule ids and, for a
conformance failure, its structured details and fingerprints), so under pytest-xdist the
controller sees everything the workers saw. `recorded_property` is the one place they
are read.

A failed rule is charged every failure that is evidence against it (`Evidence`: each
failure a test reports crosses with the rules it implicates and its replay file's
content), and its verdict is read off them (`RuleOutcome.rule_verdict`,
`refold.verdicts.found_on`): `found_on`, the least departing shape among them; `impact`, the worst
impact among those on that shape; and the failure the verdict rests on, the first of
those with that impact, which the rule's `failure` shows and its one replay file replays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pytest

from refold.reference import STATUSES, FailureRecord, Shape, Status, failure_record

from ..verdicts.found_on import RuleVerdict, rule_verdict

__all__ = [
    "BLOCKED_PROPERTY",
    "FAILURES_PROPERTY",
    "FAILURE_PROPERTY",
    "FINGERPRINTS_PROPERTY",
    "IMPLICATED_PROPERTY",
    "STATUSES",
    "TEST_PROPERTY",
    "UNJUDGED_PROPERTY",
    "Evidence",
    "RuleOutcome",
    "RuleResults",
    "XfailedTest",
    "recorded_property",
]

FAILURE_PROPERTY = "refold_failure"
"""The user property holding a conformance failure's details, as JSON text
(`refold.records.replay.encode_failure`: plain and bounded, so it crosses from an xdist worker)."""

IMPLICATED_PROPERTY = "refold_implicated"
"""The user property naming the rules a conformance failure is evidence against."""

BLOCKED_PROPERTY = "refold_blocked"
"""The user property naming the test's rules a crash charged elsewhere kept unchecked."""

UNJUDGED_PROPERTY = "refold_unjudged"
"""The user property naming a test's rules its target's projection leaves unjudged, and
why: `{"rules": "ID ID", "reason": "not judged: ..."}`."""

TEST_PROPERTY = "refold_test"
"""The user property naming a test as fingerprints do (`refold.verdicts.fingerprints.test_id`)."""

FINGERPRINTS_PROPERTY = "refold_fingerprints"
"""The user property listing a failed test's fingerprints (see `refold.verdicts.fingerprints`)."""

FAILURES_PROPERTY = "refold_failures"
"""The user property holding every conformance failure a test reports, as JSON text
(`refold.records.replay.encode_failures`): each one's record, the rules it is evidence against
and its replay file's content, so the controller charges each rule the failure that
implicates it and writes the replay its verdict rests on."""

_MESSAGE_LIMIT = 4000


def recorded_property(report: pytest.TestReport, name: str) -> Any:
    """The refold user property `name` of a report (None if absent).

    Every read of a failure record, implicated rules or fingerprints goes through here,
    so how they cross from xdist workers is decided in one place.
    """
    value = dict(report.user_properties).get(name)
    if name == FAILURE_PROPERTY:
        from .replay import decode_failure  # the record crossed as JSON text

        return decode_failure(value)
    if name == FAILURES_PROPERTY:
        from .replay import decode_failures

        return [Evidence(*entry) for entry in decode_failures(value)]
    return value


class Evidence(NamedTuple):
    """One failure a test reported, as its rules' outcomes hold it."""

    record: FailureRecord
    implicated: tuple[str, ...]
    replay: dict[str, Any] | None
    """The content of its replay file (None: no replay file is written)."""


@dataclass(frozen=True)
class XfailedTest:
    """A test that failed as a baseline expected: what a gate judges it by."""

    nodeid: str
    rules: tuple[str, ...]
    implicated: frozenset[str]
    fingerprints: tuple[dict[str, Any], ...]
    failure: FailureRecord | None


@dataclass
class RuleOutcome:
    """The aggregated result of one rule."""

    status: Status = "not run"
    tests: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    first_failure: str | None = None
    failure: FailureRecord | None = None
    skip_reason: str | None = None
    xfail_reason: str | None = None
    unjudged_reason: str | None = None
    blocked_by: list[str] = field(default_factory=list)
    """The rules whose crashes kept this rule's tests from checking it."""
    fingerprints: list[dict[str, Any]] = field(default_factory=list)
    verdict: str | None = None  # a baseline's verdict on the rule: "new" or "stale"
    evidence: list[Evidence] = field(default_factory=list)
    """Every failure charged to the rule, in the order its tests reported them."""

    def add(
        self,
        status: Status,
        *,
        message: str | None = None,
        failure: FailureRecord | None = None,
        blockers: tuple[str, ...] = (),
        evidence: tuple[Evidence, ...] = (),
    ) -> None:
        """Fold one test's outcome into the rule's (`blockers`: for "blocked"; `evidence`:
        for "failed", the failures charged to the rule, else `failure` alone). The
        rule's `failure` is the one its verdict rests on (`rule_verdict`)."""
        self.tests += 1
        self.blocked_by += [r for r in blockers if r not in self.blocked_by]
        self.counts[status] = self.counts.get(status, 0) + 1
        if STATUSES.index(status) < STATUSES.index(self.status):
            self.status = status
        if status == "failed":
            self.evidence += evidence or ((Evidence(failure, (), None),) if failure else ())
            chosen = self.rule_verdict.failure
            if chosen is not None:
                self.first_failure, self.failure = chosen["message"], chosen
            elif self.first_failure is None:
                self.first_failure = message
        if status == "skipped" and self.skip_reason is None:
            self.skip_reason = message
        if status == "xfailed" and self.xfail_reason is None:
            self.xfail_reason = message
        if status == "not judged" and self.unjudged_reason is None:
            self.unjudged_reason = message

    def mark_failed(self, reason: str, failure: FailureRecord | None = None) -> None:
        """The run judged this rule failed after its tests ran (a baseline's verdict);
        `failure` is the record of the test failure behind it, chunks and all."""
        self.mark_stale(reason)
        if failure is not None:
            self.failure = {**failure, "message": reason}

    def mark_stale(self, reason: str) -> None:
        """A baseline expected this rule to fail and none of its tests did."""
        self.status = "failed"
        self.first_failure = reason
        self.failure = failure_record(reason)

    @property
    def rule_verdict(self) -> RuleVerdict:
        """Where the rule failed (`found_on`), what that costs (`impact`) and the failure
        the verdict rests on (`refold.verdicts.found_on.rule_verdict`); for a rule failed by a
        verdict on no recorded failure (a stale baseline entry), its `failure` alone."""
        records = [e.record for e in self.evidence]
        return rule_verdict(records or ([self.failure] if self.failure is not None else []))

    def replay_of(self, record: FailureRecord | None) -> dict[str, Any] | None:
        """The replay file content of one of the rule's failures (None: none was made)."""
        return next((e.replay for e in self.evidence if e.record is record), None)

    @property
    def reason(self) -> str | None:
        """Why the rule has its status: the skip, xfail or not-judged reason, or the first
        failure."""
        if self.status == "skipped":
            return self.skip_reason
        if self.status == "xfailed":
            return self.xfail_reason
        if self.status == "not judged":
            return self.unjudged_reason
        if self.status == "blocked":
            return f"blocked by {', '.join(self.blocked_by)}"
        if self.status == "failed" and self.first_failure:
            return self.first_failure.strip().splitlines()[0]
        return None


class RuleResults:
    """Outcomes keyed by rule id."""

    def __init__(self) -> None:
        self.by_rule: dict[str, RuleOutcome] = {}
        self.xfailed: list[XfailedTest] = []
        self.ran: set[str] = set()  # `module::name` of every test whose call phase ran
        # (test, rule) pairs where a crash charged elsewhere kept the test from judging
        # the rule: no evidence either way, so a gate judges nothing stale there.
        self.blocked_in: set[tuple[str, str]] = set()

    def record(self, report: pytest.TestReport, rules: list[str]) -> None:
        """Record a test report for its rules (the call phase, or a skip/error).

        A conformance failure is charged to the rules it implicates (see
        `refold.attribution`, `refold.verdicts.crashes`); the test's other rules held in the
        failing example, or, when a crash charged elsewhere stopped the test, are blocked.
        """
        status = _status(report)
        if status is None:
            return
        if report.when == "call" and status != "skipped":
            self.ran.add(str(recorded_property(report, TEST_PROPERTY)))
        implicated = str(recorded_property(report, IMPLICATED_PROPERTY) or "").split()
        fingerprints = list(recorded_property(report, FINGERPRINTS_PROPERTY) or [])
        for fingerprint in fingerprints:
            outcome = self.by_rule.setdefault(fingerprint["rule"], RuleOutcome())
            outcome.fingerprints.append({k: v for k, v in fingerprint.items() if k != "rule"})
        if status == "xfailed":
            failure: FailureRecord | None = recorded_property(report, FAILURE_PROPERTY)
            self.xfailed.append(
                XfailedTest(
                    report.nodeid,
                    tuple(rules),
                    frozenset(implicated or rules),
                    tuple(fingerprints),
                    failure,
                )
            )
        unjudged, why = _unjudged(report, rules)
        if status in ("failed", "xfailed") and implicated:
            self._record(report, status, implicated)
            blocked = [
                r
                for r in str(recorded_property(report, BLOCKED_PROPERTY) or "").split()
                if r in rules and r not in implicated and r not in unjudged
            ]
            for rule_id in blocked:
                self.by_rule.setdefault(rule_id, RuleOutcome()).add(
                    "blocked", blockers=tuple(implicated)
                )
                self.blocked_in.add((str(recorded_property(report, TEST_PROPERTY)), rule_id))
            held = [r for r in rules if r not in implicated and r not in blocked]
            self._record_status([r for r in held if r in unjudged], "not judged", why, None)
            if held := [r for r in held if r not in unjudged]:
                self._record_status(held, "passed", None, None)
            return
        # What the projection leaves out is not judged, whatever the test's outcome says
        # of the rules it does judge.
        self._record_status([r for r in rules if r in unjudged], "not judged", why, None)
        if judged := [r for r in rules if r not in unjudged]:
            self._record(report, status, judged)

    def _record(self, report: pytest.TestReport, status: Status, rules: list[str]) -> None:
        message = _message(report, status)
        recorded = recorded_property(report, FAILURE_PROPERTY)
        failure: FailureRecord | None = None
        if status == "failed" and recorded is not None:
            failure = recorded
            message = str(recorded.get("message") or message)
        elif status == "failed":
            failure = failure_record(message or "")
        evidence: list[Evidence] = (
            recorded_property(report, FAILURES_PROPERTY) or [] if status == "failed" else []
        )
        for rule_id in rules:
            # Each rule is charged the failures that are evidence against it (the first
            # when none names it: the test's own rules of a failure charged elsewhere).
            charged = tuple(e for e in evidence if rule_id in e.implicated) or tuple(evidence[:1])
            self.by_rule.setdefault(rule_id, RuleOutcome()).add(
                status,
                message=message,
                failure=failure,
                evidence=tuple(_own_impact(e, rule_id) for e in charged),
            )

    def _record_status(
        self, rules: list[str], status: Status, message: str | None, failure: FailureRecord | None
    ) -> None:
        for rule_id in rules:
            self.by_rule.setdefault(rule_id, RuleOutcome()).add(
                status, message=message, failure=failure
            )

    def status(self, rule_id: str) -> Status:
        """The rule's aggregated status ("not run" if no test reported on it)."""
        outcome = self.by_rule.get(rule_id)
        return outcome.status if outcome else "not run"

    def found_on(self, rule_id: str) -> Shape | None:
        """The least departing shape the rule failed on so far (None: it has not failed)."""
        outcome = self.by_rule.get(rule_id)
        return outcome.rule_verdict.found_on if outcome and outcome.status == "failed" else None


def _unjudged(report: pytest.TestReport, rules: list[str]) -> tuple[set[str], str | None]:
    """The test's rules its target's projection leaves unjudged, and why."""
    recorded = recorded_property(report, UNJUDGED_PROPERTY)
    if not isinstance(recorded, dict):
        return set(), None
    named = set(str(recorded.get("rules") or "").split()) & set(rules)
    return named, str(recorded.get("reason") or "") or None


def _status(report: pytest.TestReport) -> Status | None:
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


def _message(report: pytest.TestReport, status: Status) -> str | None:
    if status == "skipped" and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    if status == "xfailed":
        return str(getattr(report, "wasxfail", "")) or None
    if status == "failed":
        crash = getattr(report.longrepr, "reprcrash", None)
        text = str(getattr(crash, "message", "")) or report.longreprtext
        return text if len(text) <= _MESSAGE_LIMIT else text[:_MESSAGE_LIMIT] + "\n..."
    return None


def _own_impact(evidence: Evidence, rule_id: str) -> Evidence:
    """The evidence as rule `rule_id` reads it: its record's `impact` is the rule's own
    (`ConformanceFailure.impacts`), where the failure records one for it."""
    impacts = evidence.record.get("impacts")
    own = impacts.get(rule_id) if isinstance(impacts, dict) else None
    if own is None or own == evidence.record.get("impact"):
        return evidence
    return evidence._replace(record={**evidence.record, "impact": own})
