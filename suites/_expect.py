"""Assertions the rule examples of the dialects whose items are events share.

A wrong result is raised as found by a rule example (`found_by="example"`): the harness
charges it (the dialect's `Charging`); a wrong `finished` is a failure of the lifecycle
rule the test names for it. Each dialect's `_expect` gives them its names and defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from refold.reference import JSON, JSONObject

__all__ = [
    "Judged",
    "add_all",
    "expect_decoded",
    "expect_folded",
    "expect_refusals_change_nothing",
    "expect_result",
    "finished_is",
    "needs",
    "refuses_as_array",
]

Judged = Callable[[Any, JSON], JSON]
"""Given the check, what of a result the target is judged on."""


def _whole(check: Any, value: JSON) -> JSON:
    return value


def expect_result(
    check: Any,
    received: JSON,
    expected: JSONObject,
    *,
    events: list[JSON],
    rules: tuple[str, ...] | None = None,
    when: str = "the fold",
    judged: Judged = _whole,
) -> None:
    """Fail unless `received` equals `expected` under the canonical comparison, both as far
    as the target is judged on them (`judged`)."""
    found = check.differences(judged(check, expected), judged(check, received))
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


def expect_folded(
    check: Any,
    items: list[JSON],
    expected: JSONObject,
    *,
    ablate: bool,
    rules: tuple[str, ...] | None = None,
    judged: Judged = _whole,
) -> JSONObject:
    """Fold `items` through the target (`Check.fold`, ablating a failure when `ablate`) and
    fail unless the result is `expected` (`expect_result`)."""
    received: JSONObject = check.fold(items, ablate=ablate)
    expect_result(check, received, expected, events=items, rules=rules, judged=judged)
    return received


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


def needs(check: Any, feature: str, why: str) -> None:
    """Skip unless the target claims `feature` (the interface this example needs)."""
    if feature not in check.target.features:
        pytest.skip(
            f"target {check.target.name} does not claim feature {feature}, which this "
            f"example needs to {why}"
        )


def refuses_as_array(check: Any, acc: Any, item: JSON) -> None:
    """Fail unless the accumulator refuses `item` sent inside a JSON array (`add_raw`): a
    value that is not an object."""
    if acc.add_raw([item]) is None:
        name = check.dialect.item
        article = "an" if name[:1] in "aeiou" else "a"
        raise check.fail(
            f"{article} {name} that is a JSON array was accepted", events=[*acc.events, [item]]
        )


def expect_refusals_change_nothing(check: Any, items: Sequence[JSON], expected: JSONObject) -> None:
    """Fold `items`, each first sent inside a JSON array (`refuses_as_array`), and fail
    unless the result read at the end is `expected` (`expect_result`): what the fold
    refused left it as it was."""
    needs(check, "lifecycle", "read the fold after a refusal")
    acc = check.accumulator()
    for item in items:
        refuses_as_array(check, acc, item)
        acc.add(item)
    expect_result(
        check,
        acc.response(),
        expected,
        events=list(acc.events),
        when=f"the fold after refused {check.dialect.items}",
    )


def add_all(acc: Any, events: list[JSON]) -> None:
    """Add every event, in order."""
    for event in events:
        acc.add(event)
