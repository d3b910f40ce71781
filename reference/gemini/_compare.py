"""The dialect's canonical comparison of a target's response with the expected one.

The wire is proto3 JSON, which omits default values, so a value and its default are one
value: remove every key whose value is null or an empty list, a candidate's `index: 0`, a
part's `thought: false` and a functionCall's empty `args`, recursively, except inside a
functionCall's `args` (arguments are data: `{"x": null}` is not `{}`); then compare as
JSON values (key order ignored, list order significant, `1 == 1.0`, `true != 1`).
Differences are reported at RFC 6901 JSON pointers, expected value first.
"""

from __future__ import annotations

from .._compare import Difference, _walk
from .._json import JSON, json_equal

__all__ = ["canonical", "differences"]

_LIST_ITEMS: dict[str | None, str] = {"candidates": "candidate", "parts": "part"}
"""The kind of an item of a list, by the list's kind."""

_MEMBERS: dict[tuple[str | None, str], str] = {
    ("response", "candidates"): "candidates",
    ("candidate", "content"): "content",
    ("content", "parts"): "parts",
    ("part", "functionCall"): "call",
}
"""The kind of a member, by its object's kind and its key; any other member is plain."""


def _default(kind: str | None, key: str, value: JSON) -> bool:
    """True for a value proto3 JSON would have omitted (or null, or an empty list)."""
    if value is None or value == []:
        return True
    if kind == "candidate" and key == "index":
        return json_equal(value, 0)
    if kind == "part" and key == "thought":
        return value is False
    return kind == "call" and key == "args" and value == {}


def _canonical(value: JSON, kind: str | None) -> JSON:
    if isinstance(value, list):
        return [_canonical(item, _LIST_ITEMS.get(kind)) for item in value]
    if not isinstance(value, dict):
        return value
    return {
        key: item
        if (kind, key) == ("call", "args")
        else _canonical(item, _MEMBERS.get((kind, key)))
        for key, item in value.items()
        if not _default(kind, key, item)
    }


def canonical(value: JSON) -> JSON:
    """Return a response with proto3 defaults and nulls removed, call arguments kept whole."""
    return _canonical(value, "response")


def differences(expected: JSON, received: JSON) -> list[Difference]:
    """Every difference between two responses under the canonical comparison.

    Returns an empty list when they are equivalent. Differences come in document order of
    the expected value, then keys only the received value has.
    """
    found: list[Difference] = []
    _walk(canonical(expected), canonical(received), [], found)
    return found
