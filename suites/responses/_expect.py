"""Assertions shared by the RS rule examples.

A wrong Response is raised as found by a rule example (`found_by="example"`): the harness
charges it (the dialect's `Charging`: among the test's own rules first); a wrong
`finished` is a failure of the lifecycle rule the test names for it.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject

from ._events import numbered


def expect_response(
    check: Any,
    received: JSON,
    expected: JSONObject,
    *,
    events: list[JSON],
    rules: tuple[str, ...] | None = None,
    when: str = "the fold",
) -> None:
    """Fail unless `received` equals `expected` under the canonical comparison."""
    found = check.differences(expected, received)
    if found:
        raise check.fail(
            f"{when} differs from the expected Response at {len(found)} place(s)",
            rules=rules,
            found_by="example",
            events=events,
            differences=found,
            expected=expected,
            received=received,
        )


def expect_fold(
    check: Any, events: list[JSON], expected: JSONObject, *, rules: tuple[str, ...] | None = None
) -> JSONObject:
    """Fold `events` (numbered as OpenAI numbers them when none carries a
    `sequence_number`) through the target and fail unless the Response is `expected`."""
    events = numbered(events)
    received: JSONObject = check.fold(events, ablate=True)
    expect_response(check, received, expected, events=events, rules=rules)
    return received


def expect_finished(
    check: Any, acc: Any, *, expected: bool, rule: str = "LIFE-RS-FINISHED"
) -> None:
    """Fail unless the accumulator's `finished` is `expected`."""
    if acc.finished is not expected:
        raise check.fail(
            f"finished is {not expected} after event {len(acc.events) - 1}, expected {expected}",
            rules=(rule,),
            events=list(acc.events),
        )


def add_all(acc: Any, events: list[JSON]) -> None:
    """Add every event, in order."""
    for event in events:
        acc.add(event)
