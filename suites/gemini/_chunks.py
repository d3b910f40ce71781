"""Builders of the Gemini rule examples' chunks and expected responses, shaped as Google
sends them (gemini-fold.md, "Input and output"; research R3-R10): every chunk a whole
`GenerateContentResponse` repeating `modelVersion` and `responseId`, one candidate's
content parts as deltas, the `finishReason` and the final `usageMetadata` on the last
chunk."""

from __future__ import annotations

import copy
from typing import Any

from refold.reference import JSON, JSONObject

__all__ = [
    "MODEL",
    "RESPONSE_ID",
    "USAGE",
    "answer",
    "call",
    "candidate",
    "chunk",
    "piece",
    "response",
    "text",
    "text_stream",
    "thought",
]

MODEL = "gemini-2.5-flash"
RESPONSE_ID = "AbCdEfGhIjKl"
USAGE: JSONObject = {"promptTokenCount": 8, "candidatesTokenCount": 5, "totalTokenCount": 13}
_IDENTITY: JSONObject = {"modelVersion": MODEL, "responseId": RESPONSE_ID}


def text(value: str, **keys: JSON) -> JSONObject:
    """A text part (`thoughtSignature` and other keys as given)."""
    return {"text": value, **keys}


def thought(value: str, **keys: JSON) -> JSONObject:
    """A thought summary part (`includeThoughts`)."""
    return {"text": value, "thought": True, **keys}


def call(name: str | None = None, **fields: JSON) -> JSONObject:
    """A `functionCall` part (its `name` first when given)."""
    named: JSONObject = {} if name is None else {"name": name}
    return {"functionCall": {**named, **fields}}


def piece(path: str, **value: JSON) -> JSONObject:
    """One Vertex `partialArgs` piece: a `jsonPath` and its typed value."""
    return {"jsonPath": path, **value}


def candidate(*parts: JSONObject, index: int | None = None, **keys: JSON) -> JSONObject:
    """A candidate entry whose content holds `parts` (none: no content), with `keys`."""
    entry: JSONObject = {}
    if parts:
        entry["content"] = {"role": "model", "parts": copy.deepcopy(list(parts))}
    if index is not None:
        entry["index"] = index
    entry.update(copy.deepcopy(keys))
    return entry


def chunk(*entries: JSONObject, **top: JSON) -> JSONObject:
    """One chunk: its candidate entries (none: no `candidates` key) and the identity
    Google repeats on every chunk, then `top`."""
    made: JSONObject = {}
    if entries:
        made["candidates"] = copy.deepcopy(list(entries))
    made.update(copy.deepcopy(_IDENTITY))
    made.update(copy.deepcopy(top))
    return made


def response(*candidates: JSONObject, **top: JSON) -> JSONObject:
    """The expected response: its candidates (none: no `candidates` key), the identity,
    then `top`."""
    return chunk(*candidates, **top)


def text_stream(*pieces: str, finish: str = "STOP", **last: Any) -> list[JSONObject]:
    """Answer text as Google streams it: one piece per chunk, the finish reason and the
    final usage on the last chunk."""
    chunks = [chunk(candidate(text(p))) for p in pieces]
    chunks[-1]["candidates"][0]["finishReason"] = finish
    chunks[-1].update({"usageMetadata": copy.deepcopy(USAGE), **last})
    return chunks


def answer(value: str, finish: str = "STOP", **top: JSON) -> JSONObject:
    """The expected response of one joined answer text."""
    return response(candidate(text(value), finishReason=finish), **top)
