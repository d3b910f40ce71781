"""Builders for hand-written Anthropic Messages streams and the Messages they fold into.

Written the way the streaming docs write their examples: one small function per event,
keyword arguments for the fields that vary, None for JSON null.

Events:    message_start, block_start, text_start, tool_start, thinking_start,
           unsigned_thinking_start,
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
"""The message_start envelope every example uses unless it overrides a key."""

START_USAGE: JSONObject = {"input_tokens": 25, "output_tokens": 1}
"""message_start's usage in the docs' basic stream (a provisional output count)."""

DELTA_USAGE: JSONObject = {"output_tokens": 15}
"""message_delta's usage in the docs' basic stream: the final output count."""

FINAL_USAGE: JSONObject = {**START_USAGE, **DELTA_USAGE}
"""The Message's usage after the two (AM-USAGE-REPLACE)."""

_UNSET: Any = object()
"""Marks a keyword left out, so that an explicit None can stand for JSON null."""

NO_USAGE: Any = object()
"""Pass as `usage` to leave the key out: the docs' thinking stream carries no usage (AQ4),
which the SDK's types do not allow, so only examples about that leave it out."""


def _with_usage(fields: dict[str, Any], default: JSONObject) -> dict[str, Any]:
    """`fields` with `usage` defaulted (a copy of `default`), or left out for NO_USAGE."""
    usage = fields.pop("usage", _UNSET)
    if usage is NO_USAGE:
        return fields
    return {**fields, "usage": dict(default) if usage is _UNSET else usage}


def _given(**fields: Any) -> JSONObject:
    return {key: value for key, value in fields.items() if value is not _UNSET}


# Events


def message_start(
    *content: JSONObject, stop_reason: Any = None, stop_sequence: Any = None, **fields: Any
) -> JSONObject:
    """A `message_start` whose message is the envelope, `content` and `fields`; its
    `usage` is the docs' (`START_USAGE`) unless given (`NO_USAGE`: none)."""
    message = {
        **ENVELOPE,
        "content": list(content),
        "stop_reason": stop_reason,
        "stop_sequence": stop_sequence,
        **_with_usage(fields, START_USAGE),
    }
    return {"type": "message_start", "message": message}


def block_start(index: Any, content_block: Any) -> JSONObject:
    """A `content_block_start` opening `content_block` at `index`."""
    return {"type": "content_block_start", "index": index, "content_block": content_block}


def text_start(index: Any = 0, text: Any = "", **extra: Any) -> JSONObject:
    """A `content_block_start` of a text block (the docs' initial `text: ""`)."""
    return block_start(index, {"type": "text", "text": text, **extra})


def tool_start(
    index: Any = 0,
    id: str = "toolu_01",
    name: str = "get_weather",
    input: Any = _UNSET,
    type: str = "tool_use",
    **extra: Any,
) -> JSONObject:
    """A `content_block_start` of a tool block (initial `input: {}` unless given)."""
    block = {
        "type": type,
        "id": id,
        "name": name,
        "input": {} if input is _UNSET else input,
        **extra,
    }
    return block_start(index, block)


def thinking_start(
    index: Any = 0, thinking: Any = "", signature: Any = "", **extra: Any
) -> JSONObject:
    """A `content_block_start` of a thinking block (initial `thinking: ""` and, as the
    SDK's ThinkingBlock requires and the API sends, `signature: ""`; the docs' example
    leaves `signature` out: write that start with `block_start`)."""
    return block_start(
        index, {"type": "thinking", "thinking": thinking, "signature": signature, **extra}
    )


def unsigned_thinking_start(index: Any = 0) -> JSONObject:
    """The docs' extended-thinking stream's start: a thinking block without `signature`
    (observed: AMD-THINKING-UNSIGNED-START)."""
    return block_start(index, {"type": "thinking", "thinking": ""})


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


def message_delta(
    stop_reason: Any = _UNSET, stop_sequence: Any = _UNSET, *, usage: Any = _UNSET, **fields: Any
) -> JSONObject:
    """A `message_delta`: `stop_reason`, `stop_sequence` and `fields` go into its `delta`;
    a keyword left out is absent (the docs' deltas carry both stop fields). Its `usage`
    is the docs' (`DELTA_USAGE`) unless given (`NO_USAGE`: none)."""
    event: JSONObject = {
        "type": "message_delta",
        "delta": _given(stop_reason=stop_reason, stop_sequence=stop_sequence, **fields),
    }
    return {**event, **_with_usage({"usage": usage}, DELTA_USAGE)}


def stop(**extra: Any) -> JSONObject:
    """A `message_stop` (with envelope keys such as Bedrock's metrics in `extra`)."""
    return {"type": "message_stop", **extra}


def ping() -> JSONObject:
    """A `ping`."""
    return {"type": "ping"}


def error(type: str = "overloaded_error", message: str = "Overloaded", **extra: Any) -> JSONObject:
    """The docs' `error` event (an overloaded error)."""
    return {"type": "error", "error": {"type": type, "message": message}, **extra}


def text_stream(*texts: str, stop_reason: str = "end_turn") -> list[JSONObject]:
    """The docs' basic stream: one text block streamed as `texts`, then its stop."""
    return [
        message_start(),
        text_start(0),
        *(text_delta(0, part) for part in texts),
        block_stop(0),
        message_delta(stop_reason, None),
        stop(),
    ]


# Expected values


def message(
    *content: JSONObject, stop_reason: Any = None, stop_sequence: Any = None, **fields: Any
) -> JSONObject:
    """The Message a stream with the default envelope folds into: its `usage` is
    `FINAL_USAGE` (the default message_start's and message_delta's) unless given
    (`NO_USAGE`: none)."""
    return {
        **ENVELOPE,
        "content": list(content),
        "stop_reason": stop_reason,
        "stop_sequence": stop_sequence,
        **_with_usage(fields, FINAL_USAGE),
    }


def text(value: str, **extra: Any) -> JSONObject:
    """An expected text block."""
    return {"type": "text", "text": value, **extra}


def tool_use(
    input: JSON,
    id: str = "toolu_01",
    name: str = "get_weather",
    type: str = "tool_use",
    **extra: Any,
) -> JSONObject:
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
