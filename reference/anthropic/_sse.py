"""The wire layer of the Anthropic Messages dialect: SSE frames in, event objects out.

Built on the WHATWG decoder of `refold.reference.sse`. The fold type of an event is its
data's `type`, so the SSE `event:` name is never consulted (AM-SSE-TYPE): frames without
an `event:` line decode like any other, and `ping`, `error` and unknown events are all
handed to the fold, whose rules decide (AM-SSE-EMPTY, AM-PING, AM-LIFE-ERROR).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from .._json import JSON
from ..sse import Event, EventStreamDecoder
from ._errors import EventDataError

__all__ = ["MessageStreamDecoder", "decode_stream"]

_JSON_WHITESPACE = " \t\n\r"


class MessageStreamDecoder:
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
    if not event.data.strip(_JSON_WHITESPACE):
        return []  # AM-SSE-EMPTY: proxies flush `event:` lines without data
    try:
        # AM-SSE-TYPE: the data's `type` decides, whatever `event.type` says
        return [json.loads(event.data)]
    except ValueError as exc:
        raise EventDataError(event.data, line=event.line, reason=str(exc)) from None


def decode_stream(parts: Iterable[bytes]) -> list[JSON]:
    """Decode a whole stream given as byte pieces into its event objects.

    Raises:
        EventDataError: an event's data is not JSON.
    """
    decoder = MessageStreamDecoder()
    values = [value for part in parts for value in decoder.feed(part)]
    return values + decoder.close()
