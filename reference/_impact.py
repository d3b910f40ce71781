"""What a failure costs (verdicts.md §3): `crash`, `loss`, `corruption` or `representation`.

Read off the canonical comparison's differences, in the contract's order of precedence: a
raise is a crash whatever was compared; a difference where the expected value holds
something the received one lacks (absent, empty, or a shorter text or list) is a loss; one
where both hold a value and they differ (joined ids, summed usage, another stop reason, an
invented value) is a corruption; a difference only between the empty values `null`, `""`,
absent, `[]` and `{}` is a representation.
"""

from __future__ import annotations

from collections.abc import Iterable

from ._compare import ABSENT, Difference
from ._json import JSON
from ._outcomes import Impact, worst_impact

__all__ = ["impact_of", "is_empty"]


def is_empty(value: JSON) -> bool:
    """Whether `value` is one of the values that say "nothing": absent, null, "", [] or {}."""
    return value is ABSENT or value is None or value in ("", [], {})


def impact_of(differences: Iterable[Difference], *, crashed: bool) -> Impact | None:
    """The impact of a failure with these differences (None: no difference and no crash)."""
    if crashed:
        return "crash"
    return worst_impact(_impact(d.expected, d.received) for d in differences)


def _impact(expected: JSON, received: JSON) -> Impact:
    if is_empty(expected) and is_empty(received):
        return "representation"
    if is_empty(received) or _shorter(expected, received):
        return "loss"
    return "corruption"


def _shorter(expected: JSON, received: JSON) -> bool:
    """A received text or list that is a strict part of the expected one: cut, not wrong."""
    if isinstance(expected, str) and isinstance(received, str):
        return len(received) < len(expected) and received in expected
    if isinstance(expected, list) and isinstance(received, list):
        return len(received) < len(expected)
    return False
