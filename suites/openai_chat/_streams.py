"""Helpers for writing example streams the way the spec's quirk catalogue writes them:
the envelope is on every chunk unless a chunk overrides it.

Chunks:    stream(...), delta(...), entry(...), fragment(...), usage(...)
Expected:  completion(...), choice(...), call(...), usage(...)
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSONObject

ENVELOPE: JSONObject = {
    "id": "chatcmpl-x",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "m",
}

_UNSET: Any = object()
"""Marks a keyword left out, so that an explicit None can stand for JSON null."""


def stream(*chunks: JSONObject, envelope: JSONObject | None = None) -> list[JSONObject]:
    """Return the chunks with the envelope's fields added where a chunk lacks them."""
    base = ENVELOPE if envelope is None else envelope
    return [{**base, **chunk} for chunk in chunks]


def delta(index: int = 0, finish_reason: str | None = None, **fields: Any) -> JSONObject:
    """One chunk with one choice entry carrying `fields` as its delta, and its
    `finish_reason` (null unless given), as OpenAI sends it on every entry."""
    return {"choices": [{"index": index, "delta": fields, "finish_reason": finish_reason}]}


def entry(**fields: Any) -> JSONObject:
    """One chunk with one choice entry made of exactly `fields` (for odd entry shapes)."""
    return {"choices": [fields]}


def fragment(
    index: Any = _UNSET,
    id: Any = _UNSET,
    name: Any = _UNSET,
    arguments: Any = _UNSET,
    type: Any = _UNSET,
) -> JSONObject:
    """One `delta.tool_calls` fragment with only the keys given (None is JSON null)."""
    result: JSONObject = {}
    for key, value in (("index", index), ("id", id), ("type", type)):
        if value is not _UNSET:
            result[key] = value
    function = {
        key: value
        for key, value in (("name", name), ("arguments", arguments))
        if value is not _UNSET
    }
    if function:
        result["function"] = function
    return result


def usage(prompt_tokens: int, completion_tokens: int, **extra: Any) -> JSONObject:
    """A usage object whose total is the sum of its two counts."""
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
        **extra,
    }


def completion(*choices: JSONObject, **fields: Any) -> JSONObject:
    """An expected `chat.completion` with the envelope's id, created and model."""
    return {
        "id": ENVELOPE["id"],
        "object": "chat.completion",
        "created": ENVELOPE["created"],
        "model": ENVELOPE["model"],
        "choices": list(choices),
        **fields,
    }


def choice(
    index: int = 0, finish_reason: str | None = None, logprobs: Any = None, **message: Any
) -> JSONObject:
    """An expected choice; the message role defaults to "assistant"."""
    return {
        "index": index,
        "message": {"role": "assistant", "content": None, **message},
        "finish_reason": finish_reason,
        "logprobs": logprobs,
    }


def call(id: str | None, name: str | None, arguments: str, type: str = "function") -> JSONObject:
    """An expected output tool call."""
    return {"id": id, "type": type, "function": {"name": name, "arguments": arguments}}
