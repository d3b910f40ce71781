"""The errors the Anthropic Messages reference fold raises.

Two things can go wrong: an event that is not a JSON object (AM-ROB-NOT-OBJECT) and
reading the Message before a `message_start` was folded (AM-LIFE-EMPTY). They subclass
the chat fold's errors so that code catching `ChunkTypeError` or `EmptyFoldError` catches
both dialects, and their messages name the AM rule.
"""

from __future__ import annotations

from .._errors import ChunkTypeError, EmptyFoldError, RefoldError, _json_type_name, _preview

__all__ = ["EventDataError", "EventTypeError", "NoMessageError"]


class EventTypeError(ChunkTypeError):
    """An event was not a JSON object (rule AM-ROB-NOT-OBJECT); the fold is unchanged."""

    def __init__(self, received: object, *, event_number: int) -> None:
        self.received_type = _json_type_name(received)
        self.chunk_number = self.event_number = event_number
        TypeError.__init__(
            self,
            f"AM-ROB-NOT-OBJECT: event {event_number} is a JSON {self.received_type}, "
            f"expected a JSON object (the data of one Anthropic Messages SSE event); "
            f"received {_preview(received)}",
        )


class NoMessageError(EmptyFoldError):
    """`response()` was called before a `message_start` was folded (rule AM-LIFE-EMPTY)."""

    def __init__(self, *, events: int) -> None:
        self.events = events
        LookupError.__init__(
            self,
            f"AM-LIFE-EMPTY: no message_start has been folded yet ({events} events received), "
            f"so there is no Message to read; add a message_start event first",
        )


class EventDataError(RefoldError, ValueError):
    """An SSE event's data was not JSON (wire feature `sse`), at the line it started on."""

    def __init__(self, data: str, *, line: int, reason: str) -> None:
        self.data = data
        self.line = line
        super().__init__(
            f"line {line}: event data is not JSON ({reason}); expected one Anthropic "
            f"Messages event object, received {_preview(data)}"
        )
