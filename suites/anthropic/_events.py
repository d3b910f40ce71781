"""Builders for hand-written Anthropic Messages streams and the Messages they fold into.

Written the way the streaming docs write their examples: one small function per event,
keyword arguments for the fields that vary, None for JSON null.

Events:    message_start, block_start, text_start, tool_start, thinking_start,
           delta, text_delta, input_delta, thinking_delta, signature_delta, citation_delta,
           block_stop, message_delta, stop, ping, error, text_stream
Expected:  message, text, tool_use, thinking
Wire:      frame (one SSE frame as bytes)
"""

from __future__ import annotations

import json
from typing import Any

from refold.reference import JSON, JSONObject

ENVELOPE: JSONObject = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
}
"""The message_start envelope every example uses unless it overrides a key. It carries no
usage: usage belongs to the `usage` feature, and the docs' thinking example has none."""

_UNSET: Any = object()
"""Marks a keyword left out, so that an explicit None can stand for JSON null."""


def _given(**fields: Any) -> JSONObject:
    return {key: value for key, value in fields.items() if value is not _UNSET}


# Events

def message_start(*content: JSONObject, stop_reason: Any = None, stop_sequence: Any = None,
                  **fields: Any) -> JSONObject:
    """A `message_start` whose message is the envelope, `content` and `fields`."""
    message = {**ENVELOPE, "content": list(content), "stop_reason": stop_reason,
               "stop_sequence": stop_sequence, **fields}
    return {"type": "message_start", "message": message}


def block_start(index: Any, content_block: Any) -> JSONObject:
    """A `content_block_start` opening `content_block` at `index`."""
    return {"type": "content_block_start", "index": index, "content_block": content_block}


def text_start(index: Any = 0, text: Any = "", **extra: Any) -> JSONObject:
    """A `content_block_start` of a text block (the docs' initial `text: ""`)."""
    return block_start(index, {"type": "text", "text": text, **extra})


def tool_start(index: Any = 0, id: str = "toolu_01", name: str = "get_weather",
               input: Any = _UNSET, type: str = "tool_use", **extra: Any) -> JSONObject:
    """A `content_block_start` of a tool block (initial `input: {}` unless given)."""
    block = {"type": type, "id": id, "name": name,
             "input": {} if input is _UNSET else input, **extra}
    return block_start(index, block)


def thinking_start(index: Any = 0, thinking: Any = "", **extra: Any) -> JSONObject:
    """A `content_block_start` of a thinking block (initial `thinking: ""`)."""
    return block_start(index, {"type": "thinking", "thinking": thinking, **extra})


def delta(index: Any, delta: Any) -> JSONObject:
    """A `content_block_delta` carrying exactly `delta` (for odd delta shapes)."""
    return {"type": "content_block_delta", "index": index, "delta": delta}


def text_delta(index: Any, text: Any) -> JSONObject:
    """A `text_delta` for block `index`."""
    return delta(index, {"type": "text_delta", "text": text})


def input_delta(index: Any, partial_json: Any) -> JSONObject:
    """An `input_json_delta` for block `index`."""
    return delta(index, {"type": "input_json_delta", "partial_json": partial_json})


def thinking_delta(index: Any, thinking: Any) -> JSONObject:
    """A `thinking_delta` for block `index`."""
    return delta(index, {"type": "thinking_delta", "thinking": thinking})


def signature_delta(index: Any, signature: Any) -> JSONObject:
    """A `signature_delta` for block `index`."""
    return delta(index, {"type": "signature_delta", "signature": signature})


def citation_delta(index: Any, citation: Any) -> JSONObject:
    """A `citations_delta` adding one citation to block `index`."""
    return delta(index, {"type": "citations_delta", "citation": citation})


def block_stop(index: Any = 0) -> JSONObject:
    """A `content_block_stop` for block `index`."""
    return {"type": "content_block_stop", "index": index}


def message_delta(stop_reason: Any = _UNSET, stop_sequence: Any = _UNSET, *,
                  usage: Any = _UNSET, **fields: Any) -> JSONObject:
    """A `message_delta`: `stop_reason`, `stop_sequence` and `fields` go into its `delta`;
    a keyword left out is absent (the docs' deltas carry both stop fields)."""
    event: JSONObject = {"type": "message_delta",
                         "delta": _given(stop_reason=stop_reason, stop_sequence=stop_sequence,
                                         **fields)}
    if usage is not _UNSET:
        event["usage"] = usage
    return event


def stop(**extra: Any) -> JSONObject:
    """A `message_stop` (with envelope keys such as Bedrock's metrics in `extra`)."""
    return {"type": "message_stop", **extra}


def ping() -> JSONObject:
    """A `ping`."""
    return {"type": "ping"}


def error(type: str = "overloaded_error", message: str = "Overloaded",
          **extra: Any) -> JSONObject:
    """The docs' `error` event (an overloaded error)."""
    return {"type": "error", "error": {"type": type, "message": message}, **extra}


def text_stream(*texts: str, stop_reason: str = "end_turn") -> list[JSONObject]:
    """The docs' basic stream: one text block streamed as `texts`, then its stop."""
    return [message_start(), text_start(0),
            *(text_delta(0, part) for part in texts),
            block_stop(0), message_delta(stop_reason, None), stop()]


# Expected values

def message(*content: JSONObject, stop_reason: Any = None, stop_sequence: Any = None,
            **fields: Any) -> JSONObject:
    """The Message a stream with the default envelope folds into."""
    return {**ENVELOPE, "content": list(content), "stop_reason": stop_reason,
            "stop_sequence": stop_sequence, **fields}


def text(value: str, **extra: Any) -> JSONObject:
    """An expected text block."""
    return {"type": "text", "text": value, **extra}


def tool_use(input: JSON, id: str = "toolu_01", name: str = "get_weather",
             type: str = "tool_use", **extra: Any) -> JSONObject:
    """An expected tool block."""
    return {"type": type, "id": id, "name": name, "input": input, **extra}


def thinking(value: str, signature: Any = _UNSET, **extra: Any) -> JSONObject:
    """An expected thinking block (`signature` absent unless given)."""
    return {"type": "thinking", "thinking": value, **_given(signature=signature), **extra}


# Wire

def frame(data: JSON | str, event: str | None = None) -> bytes:
    """One SSE frame: an optional `event:` line, one `data:` line, the blank line.

    `data` is sent as JSON (UTF-8, not ASCII-escaped, as Anthropic sends it) unless it is
    a string, which is sent as it is."""
    text_data = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    name = f"event: {event}\n" if event is not None else ""
    return f"{name}data: {text_data}\n\n".encode()
