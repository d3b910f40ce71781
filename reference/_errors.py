"""The errors the reference fold raises.

Only two things can go wrong when folding: a chunk that is not a JSON object
(ROB-NOT-OBJECT) and reading a response before any chunk was folded (LIFE-EMPTY).
Everything else a chunk may hold is folded, never refused (ROB-WRONG-TYPE).
"""

from __future__ import annotations

__all__ = ["ChunkTypeError", "EmptyFoldError", "RefoldError"]


class RefoldError(Exception):
    """Base class of every error refold raises on purpose."""


class ChunkTypeError(RefoldError, TypeError):
    """A chunk was not a JSON object (rule ROB-NOT-OBJECT); the fold is unchanged."""

    def __init__(self, received: object, *, chunk_number: int) -> None:
        self.received_type = _json_type_name(received)
        self.chunk_number = chunk_number
        super().__init__(
            f"ROB-NOT-OBJECT: chunk {chunk_number} is a JSON {self.received_type}, "
            f"expected a JSON object (a dict decoded from one SSE data: line); "
            f"received {_preview(received)}"
        )


class EmptyFoldError(RefoldError, LookupError):
    """`response()` was called before any chunk was folded (rule LIFE-EMPTY)."""

    def __init__(self) -> None:
        super().__init__(
            "LIFE-EMPTY: no chunk has been folded yet, so there is no response to read; "
            "call add(chunk) first"
        )


def _json_type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    return f"non-JSON value of Python type {type(value).__name__}"


def _preview(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
