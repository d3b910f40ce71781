"""How two provider-neutral values (events, turns, outcomes) are compared.

As JSON values (`refold.reference`'s walk) once nulls are removed, and an empty
`tool_calls` list reads as absent: a turn without calls may carry `[]` or nothing
(EV-TURN-CALLS lists the completed calls; none completed is the same turn either way).
"""

from __future__ import annotations

from .._compare import Difference, differences_under, without_nulls
from .._json import JSON

__all__ = ["differences"]

_EMPTY_LIST_MEANS_ABSENT = frozenset({"tool_calls"})


def _canonical(value: JSON) -> JSON:
    return without_nulls(value, _EMPTY_LIST_MEANS_ABSENT)


def differences(expected: JSON, received: JSON) -> list[Difference]:
    """Every difference between two neutral values, expected first: none when they are
    equal once nulls (and an empty `tool_calls`) are removed."""
    return differences_under(_canonical, expected, received)
