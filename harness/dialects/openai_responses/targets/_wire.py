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

import json
from collections.abc import Callable, Sequence
from typing import Any

from refold.reference import JSON
from refold.targets.sdk._requires import require

__all__ = [
    "API_KEY",
    "BASE_URL",
    "decode_responses",
    "event_stream_response",
    "offline_client",
    "sse_frames",
]

require("openai", extra="openai")
import httpx2  # noqa: E402  (openai-python's HTTP library, a fork of httpx)
import openai  # noqa: E402
from openai._streaming import Stream  # noqa: E402

API_KEY = "sk-refold-offline-dummy"
"""Never sent anywhere: every client's transport is in memory."""
BASE_URL = "http://refold.invalid/v1"
_RESPONSES_URL = f"{BASE_URL}/responses"

Handler = Callable[[httpx2.Request], httpx2.Response]


def offline_client(handler: Handler) -> openai.OpenAI:
    """An `OpenAI` client whose every request is answered by `handler`, in memory."""
    transport = httpx2.MockTransport(handler)
    return openai.OpenAI(
        api_key=API_KEY,
        base_url=BASE_URL,
        max_retries=0,
        http_client=httpx2.Client(transport=transport),
    )


def event_stream_response(request: httpx2.Request, parts: Sequence[bytes]) -> httpx2.Response:
    """A `text/event-stream` answer to `request` streaming `parts` one by one."""
    return httpx2.Response(
        200,
        headers={"content-type": "text/event-stream"},
        content=iter(list(parts)),
        request=request,
    )


def serving(events: Sequence[JSON]) -> Handler:
    """A handler answering any request with `events` as SSE frames."""
    frames = sse_frames(events)

    def answer(request: httpx2.Request) -> httpx2.Response:
        return event_stream_response(request, frames)

    return answer


_DECODING_CLIENT = offline_client(lambda request: httpx2.Response(500, request=request))


def decode_responses(parts: Sequence[bytes]) -> list[JSON]:
    """The events openai-python's `Stream` makes of `parts`: its `SSEDecoder` and the
    checks of `Stream.__stream__`, each event the JSON value it parsed.

    Raises:
        openai.APIError: a data object with a truthy top-level `error`, as the SDK raises it.
        json.JSONDecodeError, UnicodeDecodeError: as the SDK raises them.
    """
    request = httpx2.Request("POST", _RESPONSES_URL)
    stream: Stream[Any] = Stream(
        cast_to=object, client=_DECODING_CLIENT, response=event_stream_response(request, parts)
    )
    return list(stream)


def sse_frames(events: Sequence[JSON]) -> list[bytes]:
    """Each event as the frame OpenAI writes for it: `event: <type>`, one `data:` line of
    JSON (UTF-8, not ASCII-escaped), a blank line. An event whose `type` cannot be an event
    name (not a non-blank one-line string) gets no `event:` line; openai-python ignores the
    name anyway."""
    return [_frame(event) for event in events]


def _frame(event: JSON) -> bytes:
    kind = event.get("type") if isinstance(event, dict) else None
    named = isinstance(kind, str) and kind.strip() and not any(c in kind for c in "\r\n")
    head = f"event: {kind}\n" if named else ""
    try:
        return f"{head}data: {json.dumps(event, ensure_ascii=False)}\n\n".encode()
    except UnicodeEncodeError:
        # A lone surrogate can only travel escaped in UTF-8 JSON text.
        return f"{head}data: {json.dumps(event)}\n\n".encode()
