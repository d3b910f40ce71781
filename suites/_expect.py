"""Assertions the rule examples of the dialects whose items are events share.

A wrong result is raised as found by a rule example (`found_by="example"`): the harness
charges it (the dialect's `Charging`); a wrong `finished` is a failure of the lifecycle
rule the test names for it. Each dialect's `_expect` gives them its names and defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from refold.reference import JSON, JSONObject

__all__ = ["add_all", "expect_decoded", "expect_result", "finished_is"]


def expect_result(
    check: Any,
    received: JSON,
    expected: JSONObject,
    *,
    events: list[JSON],
    rules: tuple[str, ...] | None = None,
    when: str = "the fold",
    judged: Callable[[JSON], JSON] = lambda value: value,
) -> None:
    """Fail unless `received` equals `expected` under the canonical comparison, both as far
    as the target is judged on them (`judged`)."""
    found = check.differences(judged(expected), judged(received))
    if found:
        raise check.fail(
            f"{when} differs from the expected {check.dialect.result} at {len(found)} place(s)",
            rules=rules,
            found_by="example",
            events=events,
            differences=found,
            expected=expected,
            received=received,
        )


def expect_decoded(check: Any, parts: list[bytes], expected: list[JSON]) -> None:
    """Fail unless the target's SSE decoder gives out exactly the `expected` items from the
    byte `parts`. The differences' pointers are into the list of items, not into a result,
    so no place rule owns them: the failure is the test's own rules'."""
    received = check.decoded(parts)
    found = check.item_differences(expected, received)
    if found:
        shown = "; ".join(str(d) for d in found[:3])
        raise check.fail(
            f"the decoder gave out other {check.dialect.items} than the frames' data "
            f"({len(found)} difference(s): {shown})",
            events=expected,
            expected=expected,
            received=received,
        )


def finished_is(check: Any, acc: Any, *, expected: bool, rule: str) -> None:
    """Fail unless the accumulator's `finished` is `expected` (a failure of `rule`)."""
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
