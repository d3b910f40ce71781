"""How the Anthropic dialect narrows, when a failure is raised, the rules it is charged to
(`Dialect.charging`, read by `refold.run.checks`).

A rule example of several rules charges a wrong Message to the rules that decide the
places its differences are at (the dialect's `rules_at`), among the test's own; a
difference at a place none of them decides is left to its pointer, charged to that
place's rules. A property's failure is charged by its pointers alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from refold.reference import JSON, Difference

from .._dialect import Charging

__all__ = ["ANTHROPIC_CHARGING"]


def example_rules(
    check: Any, found: Sequence[Difference], expected: JSON, received: JSON, events: Sequence[JSON]
) -> tuple[str, ...] | None:
    """The test's rules that decide a value at one of the differences' places, or None
    when none of them does (then each difference is charged to the rules of its place)."""
    implicated = frozenset().union(*(check.dialect.rules_at(d.pointer) for d in found))
    return tuple(r for r in check.rules if r in implicated) or None


ANTHROPIC_CHARGING = Charging(narrowings={"example": example_rules})
"""The Anthropic dialect's narrowing of a failure when it is raised."""
