"""Assertions shared by the GM rule examples (`refold.suites._expect`, with the response's
names): a wrong response is raised as found by a rule example, the harness charging it
among the test's own rules first; a wrong `finished` is a failure of the lifecycle rule
the test names for it."""

from __future__ import annotations

from functools import partial

from .._expect import add_all, expect_folded, expect_result, finished_is, needs

__all__ = ["add_all", "expect_finished", "expect_fold", "expect_response", "needs"]

expect_response = expect_result
"""Fail unless a response equals the expected one under the canonical comparison."""

expect_fold = partial(expect_folded, ablate=True)
"""Fold chunks through the target and fail unless the response is the expected one."""

expect_finished = partial(finished_is, rule="GM-LIFE-FINISHED")
"""Fail unless the accumulator's `finished` is `expected` (else GM-LIFE-FINISHED's
failure, or that of the `rule` named)."""
