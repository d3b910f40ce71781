"""Assertions shared by the RS rule examples (`refold.suites._expect`, with the Response's
names): a wrong Response is raised as found by a rule example, the harness charging it
among the test's own rules first; a wrong `finished` is a failure of the lifecycle rule the
test names for it.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from refold.reference import JSON, JSONObject

from .._expect import add_all, expect_folded, expect_result, finished_is
from ._events import numbered

__all__ = ["add_all", "expect_finished", "expect_fold", "expect_response"]

expect_response = expect_result
"""Fail unless a Response equals the expected one under the canonical comparison."""


def expect_fold(
    check: Any, events: list[JSON], expected: JSONObject, *, rules: tuple[str, ...] | None = None
) -> JSONObject:
    """Fold `events` (numbered as OpenAI numbers them when none carries a
    `sequence_number`) through the target and fail unless the Response is `expected`."""
    return expect_folded(check, numbered(events), expected, ablate=True, rules=rules)


expect_finished = partial(finished_is, rule="LIFE-RS-FINISHED")
"""Fail unless the accumulator's `finished` is `expected` (else LIFE-RS-FINISHED's
failure, or that of the `rule` named)."""
