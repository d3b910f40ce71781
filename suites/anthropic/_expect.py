"""Assertions shared by the AM rule examples.

A wrong Message is raised as found by a rule example (`found_by="example"`): the harness
charges it (the dialect's `Charging`: to the test's rules deciding the differing places);
a wrong `finished` or `error` is a failure of the lifecycle rule the test names for it.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject


def _judged(check: Any, value: JSON) -> JSON:
    """`value` as far as the target is judged on it: the examples send the usage Anthropic
    always sends, and a target that does not claim `usage` is not compared there."""
    if "usage" in check.target.features or not isinstance(value, dict):
        return value
    return {key: item for key, item in value.items() if key != "usage"}


def expect_message(
    check: Any,
    received: JSON,
    expected: JSONObject,
    *,
    events: list[JSON],
    rules: tuple[str, ...] | None = None,
    when: str = "the fold",
) -> None:
    """Fail unless `received` equals `expected` under the canonical comparison (usage
    left out for a target that does not claim it)."""
    found = check.differences(_judged(check, expected), _judged(check, received))
    if found:
        raise check.fail(
            f"{when} differs from the expected Message at {len(found)} place(s)",
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
    """Fold `events` through the target and fail unless the Message is `expected`."""
    received: JSONObject = check.fold(events)
    expect_message(check, received, expected, events=events, rules=rules)
    return received


def expect_finished(
    check: Any, acc: Any, *, expected: bool, rule: str = "AM-LIFE-FINISHED"
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
