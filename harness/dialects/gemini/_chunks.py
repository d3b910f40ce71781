"""Reading a Gemini chunk stream: each chunk's candidate entries by index, their parts, and
what kind of part or call one is (the reference's readings, for the harness's own walks)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from refold.reference import JSON, JSONObject

from .. import _reading as reading

__all__ = ["PLAIN_TEXT_KEYS", "entries", "index_of", "is_plain_text", "is_streamed", "parts_of"]

PLAIN_TEXT_KEYS = frozenset({"text", "thought", "thoughtSignature"})
"""The keys of a plain text part (GM-TEXT-JOIN): any other key makes it a part kept as sent."""


def index_of(entry: JSONObject) -> int:
    """A candidate entry's index as the reference reads it (GM-CAND-INDEX): absent, or not
    a non-negative integer, reads 0 (proto3 omits a 0; a wrong type is GMD-WRONG-TYPE's)."""
    return reading.index_of(entry.get("index")) or 0


def entries(items: Sequence[JSON]) -> Iterator[tuple[int, JSONObject]]:
    """(item number, candidate entry) for every object entry of every chunk, in order."""
    for number, item in enumerate(items):
        candidates = item.get("candidates") if isinstance(item, dict) else None
        if isinstance(candidates, list):
            for entry in candidates:
                if isinstance(entry, dict):
                    yield number, entry


def parts_of(entry: JSONObject) -> list[JSON]:
    """An entry's parts ([] when it has none or they are not a list)."""
    content = entry.get("content")
    parts = content.get("parts") if isinstance(content, dict) else None
    return parts if isinstance(parts, list) else []


def is_plain_text(part: JSON) -> bool:
    """A plain text part: a string `text` and no keys but `PLAIN_TEXT_KEYS` (GM-TEXT-JOIN)."""
    return (
        isinstance(part, dict)
        and isinstance(part.get("text"), str)
        and part.keys() <= PLAIN_TEXT_KEYS
    )


def is_streamed(call: JSON) -> bool:
    """GM-CALL-STREAMED: a functionCall with `willContinue: true` or a `partialArgs` list."""
    return isinstance(call, dict) and (
        call.get("willContinue") is True or isinstance(call.get("partialArgs"), list)
    )
