"""Assertions shared by the AM rule examples (`refold.suites._expect`, with the Message's
names): a wrong Message is raised as found by a rule example, the harness charging it to
the test's rules deciding the differing places; a wrong `finished` or `error` is a failure
of the lifecycle rule the test names for it.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from refold.reference import JSON

from .._expect import add_all, expect_folded, expect_result, finished_is

__all__ = ["add_all", "expect_finished", "expect_fold", "expect_message"]


def _judged(check: Any, value: JSON) -> JSON:
    """`value` as far as the target is judged on it: the examples send the usage Anthropic
    always sends, and a target that does not claim `usage` is not compared there."""
    if "usage" in check.target.features or not isinstance(value, dict):
        return value
    return {key: item for key, item in value.items() if key != "usage"}


expect_message = partial(expect_result, judged=_judged)
"""Fail unless a Message equals the expected one under the canonical comparison (usage
left out for a target that does not claim it)."""

expect_fold = partial(expect_folded, ablate=False, judged=_judged)
"""Fold events through the target and fail unless the Message is the expected one."""

expect_finished = partial(finished_is, rule="AM-LIFE-FINISHED")
"""Fail unless the accumulator's `finished` is `expected` (else AM-LIFE-FINISHED's
failure, or that of the `rule` named)."""
