"""The errors the reference fold raises.

Only two things can go wrong when folding: a chunk that is not a JSON object
(ROB-NOT-OBJECT) and reading a response before any chunk was folded (LIFE-EMPTY).
Everything else a chunk may hold is folded, never refused (ROB-WRONG-TYPE).

A dialect whose stream items are SSE events subclasses the three event errors here
(`EventTypeError`, `NoResultError`, `EventDataError`), naming its rules and API in class
attributes, so code catching `ChunkTypeError` or `EmptyFoldError` catches every dialect.
"""

from __future__ import annotations

__all__ = [
    "ChunkTypeError",
    "EmptyFoldError",
    "EventDataError",
    "EventTypeError",
    "NoResultError",
    "RefoldError",
]


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


class EventTypeError(ChunkTypeError):
    """An event was not a JSON object (the dialect's `rule`); the fold is unchanged."""

    rule = "ROB-NOT-OBJECT"
    """The rule a refused event is, in the dialect's registry."""
    api = "SSE"
    """The API whose SSE events the data should be, as the message names it."""

    def __init__(self, received: object, *, event_number: int) -> None:
        self.received_type = _json_type_name(received)
        self.chunk_number = self.event_number = event_number
        TypeError.__init__(
            self,
            f"{self.rule}: event {event_number} is a JSON {self.received_type}, "
            f"expected a JSON object (the data of one {self.api} SSE event); "
            f"received {_preview(received)}",
        )


class NoResultError(EmptyFoldError):
    """The fold was read before it had a result (the dialect's empty-fold rule)."""

    message = "no event has been folded yet ({events} events received)"
    """The error's message, formatted with the number of events received so far."""

    def __init__(self, *, events: int) -> None:
        self.events = events
        LookupError.__init__(self, self.message.format(events=events))


class EventDataError(RefoldError, ValueError):
    """An SSE event's data was not JSON (wire feature `sse`), at the line it started on."""

    api = "SSE"
    """The API whose event object the data should be, as the message names it."""

    def __init__(self, data: str, *, line: int, reason: str) -> None:
        self.data = data
        self.line = line
        super().__init__(
            f"line {line}: event data is not JSON ({reason}); expected one {self.api} "
            f"event object, received {_preview(data)}"
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
