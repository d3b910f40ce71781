"""Reading a Gemini chunk stream for its shape: each chunk's candidate entries by index."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from refold.reference import JSON, JSONObject

__all__ = ["entries", "index_of", "parts_of"]


def index_of(entry: JSONObject) -> int | None:
    """A candidate entry's index (absent reads 0, as proto3 omits it); None if not an int."""
    value = entry.get("index", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


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
