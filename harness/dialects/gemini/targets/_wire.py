"""google-genai's transport, offline: the `alt=sse` bytes Gemini sends for a list of chunks,
and a `genai.Client` whose every request those bytes answer, in memory.

Gemini's `streamGenerateContent?alt=sse` body is one `data: {json}` line per chunk, each
followed by a blank line (`\\r\\n` line ends, as the API writes them), no event names and no
terminal sentinel (research R1). The client speaks `httpx` (google-genai picks `httpx` over
`httpx2` when both are installed; its `HttpOptions.httpx_client` takes a client of either)
and sends nothing anywhere: the API key is a dummy and the transport is an
`httpx.MockTransport`. Both the `google-genai` and `langchain-google-genai` targets read the
stream through this client, so google-genai's own SSE reader (`_iter_response_stream`) and
its pydantic parse of each chunk run unmodified under both.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import httpx

from refold.reference import JSON
from refold.targets.sdk._requires import require

__all__ = ["API_KEY", "BASE_URL", "Handler", "offline_client", "serving", "sse_body"]

require("google.genai", extra="gemini")
from google import genai  # noqa: E402
from google.genai import types  # noqa: E402

API_KEY = "refold-offline-dummy"
"""Never sent anywhere: every client's transport is in memory."""
BASE_URL = "http://refold.invalid/"
"""The Gemini API base the offline client names (google-genai appends `v1beta/models/…`)."""

Handler = Callable[[httpx.Request], httpx.Response]
"""What answers an offline client's every request."""


def sse_body(chunks: Sequence[JSON], *, ascii_only: bool = True) -> bytes:
    """The `alt=sse` body Gemini writes for `chunks`: one `data:` line of JSON each, then a
    blank line, `\\r\\n` line ends.

    By default every non-ASCII character is written as a JSON escape, so that each frame is
    one line whatever the text holds: the folds measure accumulation, and google-genai's
    SSE reader splits a line at characters Python counts as line breaks (U+2028, U+0085,
    ...; a wire matter, pinned by tests/dialects/gemini/test_gemini_sdk_targets.py). With
    `ascii_only=False` the text is raw UTF-8 (a lone surrogate, which UTF-8 cannot carry,
    still travels escaped)."""
    return b"".join(_frame(chunk, ascii_only=ascii_only) for chunk in chunks)


def _frame(chunk: JSON, *, ascii_only: bool) -> bytes:
    try:
        return f"data: {json.dumps(chunk, ensure_ascii=ascii_only)}\r\n\r\n".encode()
    except UnicodeEncodeError:
        return f"data: {json.dumps(chunk)}\r\n\r\n".encode()


def serving(chunks: Sequence[JSON]) -> Handler:
    """A handler answering any request with `chunks` as an `alt=sse` event stream."""
    body = sse_body(chunks)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200, headers={"content-type": "text/event-stream"}, content=body, request=request
        )

    return answer


def offline_client(handler: Handler) -> genai.Client:
    """A Gemini API (not Vertex) `genai.Client` whose every request `handler` answers."""
    http_client = httpx.Client(transport=httpx.MockTransport(handler))
    options = types.HttpOptions(base_url=BASE_URL, httpx_client=http_client)
    return genai.Client(api_key=API_KEY, http_options=options)
