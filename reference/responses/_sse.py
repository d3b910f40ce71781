"""The wire layer of the OpenAI Responses dialect: SSE frames in, event objects out.

Built on the WHATWG decoder of `refold.reference.sse`. An event's fold type is its data's
`type`; the SSE `event:` name equals it when present and is not needed (spec, Input), so
it is never consulted: frames without an `event:` line decode like any other. There is
no `[DONE]` in this dialect; a gateway that sends one anyway (a Chat habit) sends no
event, so that data is skipped rather than refused, like a frame with empty data.
Everything else, `keepalive` and `error` included, is handed to the fold, whose rules
decide (RS-KEEPALIVE, RS-ERROR-EVENT).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from .._json import JSON
from ..sse import Event, EventStreamDecoder
from ._errors import EventDataError

__all__ = ["ResponseStreamDecoder", "decode_stream"]

_JSON_WHITESPACE = " \t\n\r"


class ResponseStreamDecoder:
    """Bytes in, the JSON event objects they complete out, incrementally."""

    def __init__(self) -> None:
        self.events = EventStreamDecoder()
        """The event-stream decoder underneath."""

    def feed(self, data: bytes) -> list[JSON]:
        """Decode `data` and return the events it completed.

        Raises:
            EventDataError: an event's data is not JSON.
        """
        return [value for event in self.events.feed(data) for value in _value(event)]

    def close(self) -> list[JSON]:
        """End of stream: nothing more (an unterminated final frame is discarded)."""
        self.events.close()
        return []


def _value(event: Event) -> list[JSON]:
    data = event.data.strip(_JSON_WHITESPACE)
    if not data or data == "[DONE]":
        return []  # no event: an `event:` line flushed without data, or a Chat sentinel
    try:
        return [json.loads(event.data)]  # the data's `type` decides, not `event.type`
    except ValueError as exc:
        raise EventDataError(event.data, line=event.line, reason=str(exc)) from None


def decode_stream(parts: Iterable[bytes]) -> list[JSON]:
    """Decode a whole stream given as byte pieces into its event objects.

    Raises:
        EventDataError: an event's data is not JSON.
    """
    decoder = ResponseStreamDecoder()
    values = [value for part in parts for value in decoder.feed(part)]
    return values + decoder.close()
