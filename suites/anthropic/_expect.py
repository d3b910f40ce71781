"""Assertions shared by the AM rule examples (`refold.suites._expect`, with the Message's
names): a wrong Message is raised as found by a rule example, the harness charging it to
the test's rules deciding the differing places; a wrong `finished` or `error` is a failure
of the lifecycle rule the test names for it.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject

from .._expect import add_all, expect_result, finished_is

__all__ = ["add_all", "expect_finished", "expect_fold", "expect_message"]


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
    expect_result(
        check,
        received,
        expected,
        events=events,
        rules=rules,
        when=when,
        judged=lambda value: _judged(check, value),
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
    finished_is(check, acc, expected=expected, rule=rule)
