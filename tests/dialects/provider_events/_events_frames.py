"""Hand-written frames of both dialects for the events tests: Chat chunks (events.md §4.1)
and Anthropic events (§4.3), in the shapes the providers send."""

from __future__ import annotations

from typing import Any

__all__ = [
    "CHAT",
    "MESSAGES",
    "MESSAGE_STOP",
    "ROLE",
    "TEXT_BLOCK",
    "USAGE",
    "WEATHER",
    "block",
    "call",
    "chunk",
    "delta",
    "hello_text",
    "message_delta",
    "partial",
    "start",
    "stop",
    "text",
    "tools",
]

CHAT, MESSAGES = "openai-chat", "anthropic-messages"


# Chat chunks (events.md §4.1).


def chunk(
    delta: dict[str, Any] | None = None, finish: str | None = None, **envelope: Any
) -> dict[str, Any]:
    """A chunk whose choice 0 carries `delta` (and `finish_reason`)."""
    entry: dict[str, Any] = {"index": 0, "delta": delta if delta is not None else {}}
    if finish is not None:
        entry["finish_reason"] = finish
    return {
        "id": "chatcmpl-ev",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4o-mini",
        **envelope,
        "choices": [entry],
    }


def call(
    index: int | None = 0,
    call_id: str | None = None,
    name: str | None = None,
    arguments: str | None = None,
) -> dict[str, Any]:
    """One `delta.tool_calls` fragment."""
    entry: dict[str, Any] = {} if index is None else {"index": index}
    if call_id is not None:
        entry["id"], entry["type"] = call_id, "function"
    function = {k: v for k, v in (("name", name), ("arguments", arguments)) if v is not None}
    return {**entry, "function": function}


def tools(*calls: dict[str, Any], **delta: Any) -> dict[str, Any]:
    """A chunk carrying tool-call fragments (and other delta keys)."""
    return chunk({**delta, "tool_calls": list(calls)})


ROLE = chunk({"role": "assistant", "content": ""})
USAGE = {
    "id": "chatcmpl-ev",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "gpt-4o-mini",
    "choices": [],
    "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
}
WEATHER = [
    tools(call(0, "call_w1", "get_weather", ""), role="assistant"),
    tools(call(0, arguments='{"city"')),
    tools(call(0, arguments=': "Paris"}')),
]


# Anthropic events (events.md §4.3).


def start(usage: dict[str, int] | None = None, **extra: Any) -> dict[str, Any]:
    """A message_start (extra keys go into its message)."""
    return {
        "type": "message_start",
        "message": {
            "id": "msg_ev1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage or {"input_tokens": 10, "output_tokens": 1},
            **extra,
        },
    }


def block(index: int, content: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A content_block_start."""
    return {"type": "content_block_start", "index": index, "content_block": content, **extra}


def delta(index: int, value: dict[str, Any]) -> dict[str, Any]:
    """A content_block_delta."""
    return {"type": "content_block_delta", "index": index, "delta": value}


def text(index: int, fragment: str) -> dict[str, Any]:
    """A text_delta."""
    return delta(index, {"type": "text_delta", "text": fragment})


def partial(index: int, fragment: str) -> dict[str, Any]:
    """An input_json_delta."""
    return delta(index, {"type": "input_json_delta", "partial_json": fragment})


def stop(index: int) -> dict[str, Any]:
    """A content_block_stop."""
    return {"type": "content_block_stop", "index": index}


def message_delta(reason: str, output: int = 5, sequence: str | None = None) -> dict[str, Any]:
    """A message_delta with its stop reason and cumulative output tokens."""
    return {
        "type": "message_delta",
        "delta": {"stop_reason": reason, "stop_sequence": sequence},
        "usage": {"output_tokens": output},
    }


MESSAGE_STOP = {"type": "message_stop"}
TEXT_BLOCK = {"type": "text", "text": ""}


def hello_text(reason: str = "end_turn", sequence: str | None = None) -> list[Any]:
    """A whole Anthropic stream of the text "Hello" in two deltas."""
    return [
        start(),
        block(0, TEXT_BLOCK),
        text(0, "Hel"),
        text(0, "lo"),
        stop(0),
        message_delta(reason, sequence=sequence),
        MESSAGE_STOP,
    ]
