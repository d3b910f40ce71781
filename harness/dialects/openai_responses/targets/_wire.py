"""openai-python's wire layer for Responses streams, offline: an offline client, the bytes a
server sends for a list of events, and the SDK's decoder of them.

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

from collections.abc import Sequence

from refold.reference import JSON
from refold.targets.sdk._requires import require

__all__ = [
    "API_KEY",
    "BASE_URL",
    "decode_responses",
    "event_stream_response",
    "offline_client",
    "serving",
    "sse_frames",
]

require("openai", extra="openai")
import openai  # noqa: E402
from openai._streaming import Stream  # noqa: E402

from refold.targets.sdk.offline import (  # noqa: E402  (needs the SDK's httpx2)
    Handler,
    decoded,
    event_stream_response,
    named_frames,
    refusing,
    sdk_client,
    serving,
)

API_KEY = "sk-refold-offline-dummy"
"""Never sent anywhere: every client's transport is in memory."""
BASE_URL = "http://refold.invalid/v1"
_RESPONSES_URL = f"{BASE_URL}/responses"


def offline_client(handler: Handler) -> openai.OpenAI:
    """An `OpenAI` client whose every request is answered by `handler`, in memory."""
    return sdk_client(openai.OpenAI, handler, api_key=API_KEY, base_url=BASE_URL)


_DECODING_CLIENT = offline_client(refusing)


def decode_responses(parts: Sequence[bytes]) -> list[JSON]:
    """The events openai-python's `Stream` makes of `parts`: its `SSEDecoder` and the
    checks of `Stream.__stream__`, each event the JSON value it parsed.

    Raises:
        openai.APIError: a data object with a truthy top-level `error`, as the SDK raises it.
        json.JSONDecodeError, UnicodeDecodeError: as the SDK raises them.
    """
    return decoded(Stream, _DECODING_CLIENT, _RESPONSES_URL, parts)


def sse_frames(events: Sequence[JSON]) -> list[bytes]:
    """Each event as the frame OpenAI writes for it (`refold.targets.sdk.offline.named_frames`);
    openai-python ignores the `event:` name anyway."""
    return named_frames(events)
