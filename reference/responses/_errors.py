"""The errors the OpenAI Responses reference fold raises.

Two things can go wrong: an event that is not a JSON object (RS-NOT-OBJECT) and reading
the Response before any event was folded (LIFE-RS-EMPTY); the wire layer adds event data
that is not JSON. They subclass the chat fold's errors so that code catching
`ChunkTypeError` or `EmptyFoldError` catches every dialect, and their messages name the
rule.
"""

from __future__ import annotations

from .._errors import ChunkTypeError, EmptyFoldError, RefoldError, _json_type_name, _preview

__all__ = ["EventDataError", "EventTypeError", "NoResponseError"]


class EventTypeError(ChunkTypeError):
    """An event was not a JSON object (rule RS-NOT-OBJECT); the fold is unchanged."""

    def __init__(self, received: object, *, event_number: int) -> None:
        self.received_type = _json_type_name(received)
        self.chunk_number = self.event_number = event_number
        TypeError.__init__(
            self,
            f"RS-NOT-OBJECT: event {event_number} is a JSON {self.received_type}, "
            f"expected a JSON object (the data of one OpenAI Responses SSE event); "
            f"received {_preview(received)}",
        )


class NoResponseError(EmptyFoldError):
    """`response()` was called before any event was folded (rule LIFE-RS-EMPTY)."""

    def __init__(self, *, events: int) -> None:
        self.events = events
        LookupError.__init__(
            self,
            f"LIFE-RS-EMPTY: no event has been folded yet ({events} refused), so there is "
            f"no Response to read; add a response.created (or any event object) first",
        )


class EventDataError(RefoldError, ValueError):
    """An SSE event's data was not JSON (wire feature `sse`), at the line it started on."""

    def __init__(self, data: str, *, line: int, reason: str) -> None:
        self.data = data
        self.line = line
        super().__init__(
            f"line {line}: event data is not JSON ({reason}); expected one OpenAI "
            f"Responses event object, received {_preview(data)}"
        )
