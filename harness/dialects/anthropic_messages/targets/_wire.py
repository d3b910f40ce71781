"""anthropic-sdk-python's wire layer, offline: its SSE decoder and event filtering, an
offline client (both `SDK`'s), and the bytes a server sends for a list of events.

`SDK.decode` is the `sse` decoder of the `anthropic` and `anthropic-stream` targets:
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

from refold.targets.sdk._requires import require

__all__ = ["SDK", "event_stream_response", "serving", "sse_frames"]

require("anthropic", extra="anthropic")
import anthropic  # noqa: E402
from anthropic._streaming import Stream  # noqa: E402

from refold.targets.sdk.offline import (  # noqa: E402  (needs the SDK's httpx2)
    OfflineSdk,
    event_stream_response,
    named_frames,
    serving,
)

SDK = OfflineSdk(
    anthropic.Anthropic,
    Stream,
    base_url="http://refold.invalid",
    path="/v1/messages",
    api_key="refold-offline-dummy-key",
)
"""anthropic-python's `Anthropic` client and `Stream`, offline. `SDK.decode` raises as the
SDK does: `anthropic.APIStatusError` for an `event: error` frame, `json.JSONDecodeError` or
`UnicodeDecodeError` for data it cannot read."""

sse_frames = named_frames
"""Each event as the frame Anthropic writes for it (`refold.targets.sdk.offline.named_frames`):
an event whose `type` cannot be an event name gets no `event:` line: the API never
sends one, and the SDK then skips the frame (AM-SSE-TYPE)."""
