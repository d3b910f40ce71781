"""Target `google-genai`: google-genai's chat session, its recorded turn read back as a
response, checked on a stated projection.

Dialect `gemini-generate-content`. google-genai (Python) has no fold of a stream: each
`generate_content_stream` chunk is handed to the caller as it came, and the one place the
SDK keeps a streamed answer is the chat session's history (research R12.1). So what runs is
`client.chats.create(...).send_message_stream(...)`, read to its end, then
`chat.get_history()`: `Chat.send_message_stream` appends `chunk.candidates[0].content` of
every chunk to the turn and, after the last one, `record_history` adds the turn (an empty
`Content(role="model", parts=[])` when no chunk had content). The client is a Gemini API
`genai.Client` whose HTTP transport is in memory (`_wire`), so the SDK's SSE reader and its
pydantic parse of every chunk (`GenerateContentResponse._from_response`) run unmodified.

The history holds `Content` objects, not a response. The projection, and only that, maps the
turn onto one: the turn's contents become candidate 0's `content`, its `role` the first
content's, its `parts` every content's parts in order, each dumped by wire name
(`model_dump(mode="json", by_alias=True, exclude_none=True)`). The SDK holds `thoughtSignature`
and `inlineData.data` as bytes, which pydantic writes as URL-safe base64; they are written
here in the standard alphabet the API sends, so the same bytes read as the same string (the
alphabet is this mapping's choice, not the SDK's fold: proto3 JSON readers, Google's API
among them, accept both). Nothing is joined, dropped or reordered: that the history keeps
one `Content` per chunk, texts unjoined, is the SDK's fold and is what is checked. The comprehensive
history (`get_history()`, the default) is read; that the curated history, the one sent on
the next turn, leaves out a turn with a usage-only or part-less chunk is pinned by
tests/dialects/gemini/test_gemini_sdk_targets.py, not judged here.

So the fields compared are the candidates' `content` (declared as the target's `projection`,
`PROJECTION`): a candidate the history lacks (any but the first) differs at
`/candidates/n`. Never kept, and so outside the projection: `finishReason`, safety ratings,
citations, grounding, every other candidate key, usage, prompt feedback, `modelVersion`,
`responseId`; the rules owning only those places are not judged.

Automatic continuation is turned off (`GenerateContentConfig(automatic_continuation=False)`):
with it, a stream that ends unfinished or with `CONTINUATION` and a `continuationToken` makes
the SDK send another request, and one served stream is one call. Not `lifecycle` (the turn
is recorded once, at the end) nor `sse` (the decoder is not offered as an entry point).
"""

from __future__ import annotations

import base64
import json
from typing import Any

from refold.reference import JSON, JSONObject
from refold.targets.sdk._requires import quiet, require

from ._wire import offline_client, serving

__all__ = [
    "FEATURES",
    "MODEL",
    "PROJECTION",
    "REPRODUCER",
    "fold",
    "in_spec_shape",
    "refold_target",
]

_genai = require("google.genai", extra="gemini")
from google.genai import types  # noqa: E402

FEATURES = frozenset(
    {
        "text",
        "candidates",
        "thinking",
        "tool_calls",
        "streamed_arguments",
        "code_execution",
        "media",
        "robustness",
    }
)
"""Everything a candidate's `content` can hold, and `robustness` (the SDK's parse of each
chunk); not `lifecycle`, `sse` (see the module docstring)."""

PROJECTION: dict[str, Any] = {
    "pointers": ["/candidates/*/content"],
    "builds": "a chat history turn: one Content per chunk (candidate 0's), read back as "
    "candidate 0's content with the turn's parts in order",
}
"""The places of the response this target is compared on (the module docstring)."""

MODEL = "gemini-refold-offline"
"""The model the offline request names (nobody reads it)."""
_CONFIG = types.GenerateContentConfig(automatic_continuation=False)


def sdk_version() -> str:
    """The installed google-genai version."""
    return str(_genai.__version__)


def fold(chunks: list[JSON]) -> JSONObject:
    """Serve `chunks` to a chat session's `send_message_stream`; the turn it recorded."""
    client = offline_client(serving(chunks))
    with quiet():
        chat = client.chats.create(model=MODEL, config=_CONFIG)
        for _ in chat.send_message_stream("refold"):
            pass
        turn = chat.get_history()[1:]  # [0] is the message sent
    return in_spec_shape(turn)


def in_spec_shape(turn: list[Any]) -> JSONObject:
    """A recorded model turn (a list of `Content`) as the response the projection compares:
    candidate 0's content with the first content's role and every content's parts."""
    content: JSONObject = {}
    if turn and turn[0].role is not None:
        content["role"] = turn[0].role
    content["parts"] = [_dumped(part) for entry in turn for part in entry.parts or []]
    return {"candidates": [{"content": content}]}


def _dumped(part: Any) -> JSON:
    with quiet():
        dumped: JSON = json.loads(part.model_dump_json(by_alias=True, exclude_none=True))
    return _standard_base64(dumped)


def _standard_base64(value: JSON) -> JSON:
    """`value` with every `thoughtSignature` and `inlineData.data` (bytes in the SDK, which
    pydantic writes URL-safe) in the standard base64 alphabet."""
    if isinstance(value, list):
        return [_standard_base64(item) for item in value]
    if not isinstance(value, dict):
        return value
    found = {key: _standard_base64(item) for key, item in value.items()}
    if isinstance(found.get("thoughtSignature"), str):
        found["thoughtSignature"] = _standard(found["thoughtSignature"])
    data = found.get("inlineData")
    if isinstance(data, dict) and isinstance(data.get("data"), str):
        found["inlineData"] = {**data, "data": _standard(data["data"])}
    return found


def _standard(url_safe: str) -> str:
    return base64.b64encode(base64.urlsafe_b64decode(url_safe)).decode("ascii")


refold_target = {
    "name": "google-genai",
    "dialect": "gemini-generate-content",
    "fold": fold,
    "features": FEATURES,
    "projection": PROJECTION,
    "description": f"google-genai {sdk_version()}: chats.Chat.send_message_stream() over an "
    f"in-memory transport, the recorded history turn read back as a response "
    f"(refold.dialects.gemini.targets.google_genai)",
}
"""The declaration `--target google-genai` loads."""

REPRODUCER = '''"""Serves a stream of chunks as `alt=sse` events to google-genai's chat session, in
memory, and prints the model turn its history recorded, as one candidate's content (bytes
in the standard base64 alphabet the API sends)."""
import base64
import json

import httpx
from google import genai
from google.genai import types

CHUNKS = [json.loads(item) for item in {stream}]


def answer(request: httpx.Request) -> httpx.Response:
    body = "".join(f"data: {json.dumps(chunk)}\\r\\n\\r\\n" for chunk in CHUNKS)
    return httpx.Response(200, headers={"content-type": "text/event-stream"},
                          content=body.encode(), request=request)


offline = httpx.Client(transport=httpx.MockTransport(answer))
client = genai.Client(api_key="offline", http_options=types.HttpOptions(
    base_url="http://sdk.invalid/", httpx_client=offline))
chat = client.chats.create(model="gemini-offline",
                           config=types.GenerateContentConfig(automatic_continuation=False))
for _ in chat.send_message_stream("hi"):
    pass
turn = chat.get_history()[1:]
parts = [part.model_dump(by_alias=True, exclude_none=True)
         for content in turn for part in content.parts or []]
print(json.dumps({"candidates": [{"content": {"role": turn[0].role, "parts": parts}}]}, indent=2,
                 default=lambda data: base64.b64encode(data).decode("ascii")))
'''
"""The program an upstream report gives the SDK's maintainers (`{stream}`: the stream, a
list literal of one JSON text per chunk, `refold.targets.sdk.reproducers`): what `fold`
does, without refold."""
