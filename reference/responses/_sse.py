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

from collections.abc import Iterable

from .._json import JSON
from ..sse import JSONEventDecoder, decode_json_events
from ._errors import EventDataError

__all__ = ["ResponseStreamDecoder", "decode_stream"]


class ResponseStreamDecoder(JSONEventDecoder):
    """Bytes in, the JSON event objects they complete out, incrementally."""

    data_error = EventDataError
    skipped = frozenset({"[DONE]"})  # a Chat sentinel some gateways send: no event


def decode_stream(parts: Iterable[bytes]) -> list[JSON]:
    """Decode a whole stream given as byte pieces into its event objects.

    Raises:
        EventDataError: an event's data is not JSON.
    """
    return decode_json_events(ResponseStreamDecoder(), parts)
