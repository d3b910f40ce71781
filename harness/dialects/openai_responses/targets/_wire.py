"""openai-python's wire layer for Responses streams, offline: an offline client (`SDK`'s), the
bytes a server sends for a list of events, and the SDK's decoder of them.

`decode_responses` is the `sse` decoder of the `openai-responses` target: the byte pieces go
through openai-python's own `Stream.__stream__` (its `SSEDecoder`, then the checks it applies
before anything is folded) with `cast_to=object`, so that each event comes out as the JSON
value the SDK parsed instead of a model. What that layer does, in openai 3.57.0
(`openai/_streaming.py`, the `legacy` stream mode `responses.stream()` uses):

    data: [DONE]                    ends the stream (the Responses API never sends it)
    data whose top-level `error`    raises `APIError` built from that value (a flat `error`
      is truthy                     event, `{"type": "error", "code", "message"}`, passes)
    any other data                  parsed as JSON and passed on, whatever `event:` says

`sse_frames` writes events as OpenAI does for the Responses API: one frame each, named by the
data's `type` (`event: response.created`), one `data:` line of JSON.
"""

from __future__ import annotations

from refold.targets.sdk._requires import require

__all__ = ["BASE_URL", "SDK", "decode_responses", "event_stream_response", "serving", "sse_frames"]

require("openai", extra="openai")
import openai  # noqa: E402
from openai._streaming import Stream  # noqa: E402

from refold.targets.sdk.offline import (  # noqa: E402  (needs the SDK's httpx2)
    OfflineSdk,
    event_stream_response,
    named_frames,
    serving,
)

SDK = OfflineSdk(
    openai.OpenAI,
    Stream,
    base_url="http://refold.invalid/v1",
    path="/responses",
    api_key="sk-refold-offline-dummy",
)
"""openai-python's `OpenAI` client and `Stream`, offline."""
BASE_URL = SDK.base_url

decode_responses = SDK.decode
"""The events openai-python's `Stream` makes of byte pieces: its `SSEDecoder` and the checks
of `Stream.__stream__`, each event the JSON value it parsed. It raises as the SDK does:
`openai.APIError` for a data object with a truthy top-level `error`, `json.JSONDecodeError`
or `UnicodeDecodeError` for data it cannot read."""

sse_frames = named_frames
"""Each event as the frame OpenAI writes for it (`refold.targets.sdk.offline.named_frames`);
openai-python ignores the `event:` name anyway."""
