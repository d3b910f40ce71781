"""Comparing JSON values: where two of them differ, as RFC 6901 pointers.

Each dialect's canonical comparison (`refold.reference.<dialect>.differences`) first
normalises both values its own way, then walks them here: object key order ignored, list
order significant, `1 == 1.0`, `true != 1`. Differences are reported expected value first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import NamedTuple

from ._json import JSON, json_equal

__all__ = ["ABSENT", "Difference", "differences_under", "pointer", "without_nulls"]


class _Absent:
    """Marks a side of a difference where the key or list item does not exist."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "(absent)"


ABSENT: JSON = _Absent()
"""The value a `Difference` reports for a key or list item that is missing."""


class Difference(NamedTuple):
    """One place where the received response differs from the expected one."""

    pointer: str
    expected: JSON
    received: JSON

    def __str__(self) -> str:
        where = self.pointer or "(the whole response)"
        return f"at {where}: expected {_show(self.expected)}, received {_show(self.received)}"


def pointer(tokens: list[str | int]) -> str:
    """Build an RFC 6901 JSON pointer from path tokens."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def without_nulls(value: JSON, absent_when_empty: frozenset[str] = frozenset()) -> JSON:
    """`value` without every key whose value is null, nor any key of `absent_when_empty`
    whose value is an empty list, recursively: the normalisation most canonical
    comparisons start from (a JSON null and a missing key say the same)."""
    if isinstance(value, dict):
        return {
            key: without_nulls(item, absent_when_empty)
            for key, item in value.items()
            if item is not None and not (item == [] and key in absent_when_empty)
        }
    if isinstance(value, list):
        return [without_nulls(item, absent_when_empty) for item in value]
    return value


def differences_under(
    canonical: Callable[[JSON], JSON], expected: JSON, received: JSON
) -> list[Difference]:
    """Every difference between two values once both are brought to `canonical` form (a
    dialect's canonical comparison): none when they are equivalent; in document order of
    the expected value, then keys only the received value has."""
    found: list[Difference] = []
    _walk(canonical(expected), canonical(received), [], found)
    return found


def _walk(expected: JSON, received: JSON, path: list[str | int], found: list[Difference]) -> None:
    if isinstance(expected, dict) and isinstance(received, dict):
        for key in expected:
            _walk(expected[key], received.get(key, ABSENT), [*path, key], found)
        for key in received.keys() - expected.keys():
            found.append(Difference(pointer([*path, key]), ABSENT, received[key]))
    elif isinstance(expected, list) and isinstance(received, list):
        for position in range(max(len(expected), len(received))):
            _walk(
                expected[position] if position < len(expected) else ABSENT,
                received[position] if position < len(received) else ABSENT,
                [*path, position],
                found,
            )
    elif not json_equal(expected, received):
        found.append(Difference(pointer(path), expected, received))


def _show(value: JSON, limit: int = 200) -> str:
    if value is ABSENT:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."
