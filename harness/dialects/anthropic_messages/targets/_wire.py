"""anthropic-sdk-python's wire layer, offline: its SSE decoder and event filtering, an
offline client, and the bytes a server sends for a list of events.

`decode_anthropic` is the `sse` decoder of the `anthropic` and `anthropic-stream` targets:
the byte pieces go through the SDK's own `Stream.__stream__` (its `SSEDecoder`, then the
filtering it applies before anything is folded), with `cast_to=object` so that each event
comes out as the JSON value the SDK parsed instead of a model. What that filtering does,
in anthropic 2.15.0 (`anthropic/_streaming.py`):

    event: ping            skipped (never reaches the fold)
    no `event:` line       skipped (`sse.event is None`; AM-SSE-TYPE)
    event: error           raises `APIStatusError` built from the data (AM-SSE-EMPTY)
    empty data             skipped
    any other name         the data parsed as JSON and passed on, whatever the name says

`sse_frames` writes events as Anthropic does: one frame each, named by the data's `type`.
"""

from __future__ import annotations

from collections.abc import Sequence

from refold.reference import JSON
from refold.targets.sdk._requires import require

__all__ = [
    "API_KEY",
    "BASE_URL",
    "decode_anthropic",
    "event_stream_response",
    "offline_client",
    "serving",
    "sse_frames",
]

require("anthropic", extra="anthropic")
import anthropic  # noqa: E402
from anthropic._streaming import Stream  # noqa: E402

from refold.targets.sdk.offline import (  # noqa: E402  (needs the SDK's httpx2)
    Handler,
    decoded,
    event_stream_response,
    named_frames,
    refusing,
    sdk_client,
    serving,
)

API_KEY = "refold-offline-dummy-key"
"""Never sent anywhere: every client's transport is in memory."""
BASE_URL = "http://refold.invalid"
_MESSAGES_URL = f"{BASE_URL}/v1/messages"


def offline_client(handler: Handler) -> anthropic.Anthropic:
    """An `Anthropic` client whose every request is answered by `handler`, in memory."""
    return sdk_client(anthropic.Anthropic, handler, api_key=API_KEY, base_url=BASE_URL)


_DECODING_CLIENT = offline_client(refusing)


def decode_anthropic(parts: Sequence[bytes]) -> list[JSON]:
    """The events anthropic-python's `Stream` makes of `parts`: its `SSEDecoder` and the
    filtering of `Stream.__stream__`, each event the JSON value it parsed.

    Raises:
        anthropic.APIStatusError: an `event: error` frame, as the SDK raises it.
        json.JSONDecodeError, UnicodeDecodeError: as the SDK raises them.
    """
    return decoded(Stream, _DECODING_CLIENT, _MESSAGES_URL, parts)


def sse_frames(events: Sequence[JSON]) -> list[bytes]:
    """Each event as the frame Anthropic writes for it (`refold.targets.sdk.offline.named_frames`):
    an event whose `type` cannot be an event name gets no `event:` line: the API never
    sends one, and the SDK then skips the frame (AM-SSE-TYPE)."""
    return named_frames(events)
