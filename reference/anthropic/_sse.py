"""The wire layer of the Anthropic Messages dialect: SSE frames in, event objects out.

Built on the WHATWG decoder of `refold.reference.sse`. The fold type of an event is its
data's `type`, so the SSE `event:` name is never consulted (AM-SSE-TYPE): frames without
an `event:` line decode like any other, and `ping`, `error` and unknown events are all
handed to the fold, whose rules decide (AM-SSE-EMPTY, AM-PING, AM-LIFE-ERROR).
"""

from __future__ import annotations

from collections.abc import Iterable

from .._json import JSON
from ..sse import JSONEventDecoder, decode_json_events
from ._errors import EventDataError

__all__ = ["MessageStreamDecoder", "decode_stream"]


class MessageStreamDecoder(JSONEventDecoder):
    """Bytes in, the JSON event objects they complete out, incrementally."""

    # AM-SSE-EMPTY: proxies flush `event:` lines without data, handed on as nothing;
    # AM-SSE-TYPE: the data's `type` decides, whatever `event.type` says
    data_error = EventDataError


def decode_stream(parts: Iterable[bytes]) -> list[JSON]:
    """Decode a whole stream given as byte pieces into its event objects.

    Raises:
        EventDataError: an event's data is not JSON.
    """
    return decode_json_events(MessageStreamDecoder(), parts)
