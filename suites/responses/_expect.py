"""Assertions shared by the RS rule examples: each failure names the narrowest rules.

A test of several rules charges a wrong Response to the rules that decide the places its
differences are at (the dialect's `rules_at`), among the test's own (a difference at a
place none of them decides is left to the harness, which charges it to that place's
rules); a wrong `finished` is charged to the lifecycle rule the test names for
it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from refold.reference import JSON, Difference, JSONObject

from ._attribution import ablated_rule, done_rules, feature_rules, fold_charged
from ._events import numbered


def narrowest(
    check: Any, found: Sequence[Difference], expected: JSON, received: JSON, events: Sequence[JSON]
) -> tuple[str, ...] | None:
    """The test's feature rules when every difference is at one of their places (a lost
    refusal part is RS-REFUSAL's, not every rule owning a part), RS-DONE-REPLACES when
    every one is at a value a `.done` event set, else `charged`."""
    owned = feature_rules(found, expected, received) or done_rules(found, events)
    mine = tuple(r for r in check.rules if owned and r in owned)
    return (
        mine
        or ablated_rule(check, list(events), expected)
        or charged(check, [d.pointer for d in found])
    )


def charged(check: Any, pointers: Sequence[str]) -> tuple[str, ...] | None:
    """The test's rules that decide a value at one of `pointers`, or None when none of
    them does (then the harness charges each difference to the rules of its place)."""
    implicated = frozenset().union(*(check.dialect.rules_at(p) for p in pointers))
    return tuple(r for r in check.rules if r in implicated) or None


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
            rules=rules or narrowest(check, found, expected, received, events),
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
    received = fold_charged(check, events)
    expect_response(check, received, expected, events=events, rules=rules)
    return received


def same_fold(
    check: Any, events: list[JSON], without: list[JSON], *, rules: tuple[str, ...] | None = None
) -> None:
    """Fail unless `events` fold into the Response `without` folds into (noise ignored).

    Both are folded by the target, so the test judges only what the extra events did."""
    events, without = numbered(events), numbered(without)
    expected: JSONObject = check.fold(without)
    received: JSONObject = check.fold(events)
    expect_response(
        check, received, expected, events=events, rules=rules, when="the fold with the extra events"
    )


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
