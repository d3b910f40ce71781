"""Steps the dialects' lifecycle rule examples share: the result read after the latest item
compared with the expected one, a result handed out kept as it was read while later items
are folded, and items never mutated by folding and reading (each dialect's snapshot rule).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable

from refold.reference import JSON, Difference, JSONObject
from refold.run.checks import Check, CheckedAccumulator

__all__ = ["expect_kept_after", "expect_latest_read", "expect_never_mutated", "expect_read"]

Compare = Callable[[JSON, JSON], list[Difference]]
"""Given the expected and the received value, their differences."""


def expect_latest_read(
    expect: Callable[..., None],
    check: Check,
    acc: CheckedAccumulator,
    expected: JSONObject,
    *,
    what: str,
    rules: tuple[str, ...] | None = None,
) -> None:
    """Fail unless the result read from `acc` after its latest item is `expected`, by the
    dialect's `expect` (its `refold.suites._expect.expect_result`); `what` names the result
    in the message, and `rules` are the rules a difference is charged to (else the test's)."""
    expect(
        check,
        acc.response(),
        expected,
        events=list(acc.events),
        rules=rules,
        when=f"{what} read after {check.dialect.item} {len(acc.events) - 1}",
    )


def expect_kept_after(
    check: Check,
    acc: CheckedAccumulator,
    later: Iterable[JSONObject],
    summary: str,
    *,
    compare: Compare | None = None,
) -> None:
    """Read `acc`'s result, fold `later`, and fail with `summary` unless the result read
    first is unchanged.

    `compare` finds the differences between the kept copy and the result read first
    (`check.differences` unless given)."""
    handed_out = acc.response()
    kept = copy.deepcopy(handed_out)
    for item in later:
        acc.add(item)
    found = (compare or check.differences)(kept, handed_out)
    if found:
        raise check.fail(summary, events=list(acc.events), differences=found)


def expect_read(
    check: Check, acc: CheckedAccumulator, expected: JSONObject, summary: str, *, compare: Compare
) -> None:
    """Fail with `summary` unless the result read from `acc` now equals `expected` under
    `compare`."""
    received = acc.response()
    found = compare(expected, received)
    if found:
        raise check.fail(
            summary,
            events=list(acc.events),
            differences=found,
            expected=expected,
            received=received,
        )


def expect_never_mutated(
    check: Check, items: list[JSONObject], *, rules: tuple[str, ...] | None = None
) -> None:
    """Fold `items` one at a time through a new accumulator, reading after each, and fail
    (a failure of `rules`, else the test's) unless the items are as they were given."""
    originals = copy.deepcopy(items)
    acc = check.accumulator()
    for item in items:
        acc.add(item)  # the harness also fails the test if the target mutates its copy
        acc.response()
    if items != originals:
        raise check.fail(
            f"the {check.dialect.items} changed while they were folded",
            rules=rules,
            events=originals,
        )
