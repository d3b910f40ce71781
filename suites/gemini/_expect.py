"""Assertions shared by the GM rule examples (`refold.suites._expect`, with the response's
names): a wrong response is raised as found by a rule example, the harness charging it
among the test's own rules first; a wrong `finished` is a failure of the lifecycle rule
the test names for it."""

from __future__ import annotations

from typing import Any

import pytest

from refold.reference import JSON, JSONObject
from refold.run.checks import Check

from .._expect import add_all, expect_result, finished_is

__all__ = ["add_all", "expect_finished", "expect_fold", "expect_response", "needs"]

expect_response = expect_result
"""Fail unless a response equals the expected one under the canonical comparison."""


def expect_fold(
    check: Check, chunks: list[JSON], expected: JSONObject, *, rules: tuple[str, ...] | None = None
) -> JSONObject:
    """Fold `chunks` through the target and fail unless the response is `expected`."""
    received: JSONObject = check.fold(chunks, ablate=True)
    expect_response(check, received, expected, events=chunks, rules=rules)
    return received


def expect_finished(
    check: Check, acc: Any, *, expected: bool, rule: str = "GM-LIFE-FINISHED"
) -> None:
    """Fail unless the accumulator's `finished` is `expected`."""
    finished_is(check, acc, expected=expected, rule=rule)


def needs(check: Check, feature: str, why: str) -> None:
    """Skip unless the target claims `feature` (the interface this example needs)."""
    if feature not in check.target.features:
        pytest.skip(
            f"target {check.target.name} does not claim feature {feature}, which this "
            f"example needs to {why}"
        )
