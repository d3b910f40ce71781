"""The dialect's canonical comparison of a target's Message with the expected one.

Remove every key whose value is null, recursively, except inside a block's `input` (tool
input is data: `{"x": null}` is not `{}`); remove a `citations` key whose value is an
empty list; then compare as JSON values (key order ignored, list order significant,
`1 == 1.0`, `true != 1`). A block is an object inside a `content` list, at any depth.
Differences are reported at RFC 6901 JSON pointers, expected value first, as the chat
dialect's are.
"""

from __future__ import annotations

from .._compare import Difference, differences_under
from .._json import JSON

__all__ = ["canonical", "differences"]


def canonical(value: JSON) -> JSON:
    """Return `value` with nulls and empty `citations` removed, block inputs kept whole."""
    if isinstance(value, dict):
        return {
            key: _canonical_member(key, item)
            for key, item in value.items()
            if item is not None and not (key == "citations" and item == [])
        }
    if isinstance(value, list):
        return [canonical(item) for item in value]
    return value


def _canonical_member(key: str, item: JSON) -> JSON:
    if key == "content" and isinstance(item, list):
        return [_canonical_block(block) for block in item]
    return canonical(item)


def _canonical_block(block: JSON) -> JSON:
    if not isinstance(block, dict) or "input" not in block:
        return canonical(block)
    kept = canonical(block)  # `input` stays at its place in the block (document order)
    if block["input"] is not None:
        kept["input"] = block["input"]  # tool input is data: its nulls are values
    return kept


def differences(expected: JSON, received: JSON) -> list[Difference]:
    """Every difference between two Messages under the canonical comparison, in document
    order (`refold.reference._compare.differences_under`)."""
    return differences_under(canonical, expected, received)
