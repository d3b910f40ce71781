"""Frame builders for the hand-written OpenAI Responses events examples (events.md §4.2).

Frames are Responses events of one response (`RESPONSE_ID`, `RESPONSE_MODEL`) in OpenAI's
own shape: `response.created`, each item's events, a terminal event. Item events name
their item by `item_id` and `output_index`, as OpenAI sends them.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject

RESPONSE_ID = "resp_ex"
RESPONSE_MODEL = "gpt-5-2025-08-07"
CREATED_AT = 1764633600
"""Every response's `created_at` (OpenAI always sends it; strict SDK schemas require it)."""


def created() -> JSONObject:
    """`response.created` with the envelope and no output yet."""
    return {
        "type": "response.created",
        "response": {
            "id": RESPONSE_ID,
            "object": "response",
            "created_at": CREATED_AT,
            "status": "in_progress",
            "model": RESPONSE_MODEL,
            "output": [],
        },
    }


def added(index: int, item: JSONObject) -> JSONObject:
    """`response.output_item.added` of `item` at `index`."""
    return {"type": "response.output_item.added", "output_index": index, "item": item}


def item_done(index: int, item: JSONObject) -> JSONObject:
    """`response.output_item.done` of `item` at `index`."""
    return {"type": "response.output_item.done", "output_index": index, "item": item}


def message_item(item_id: str = "msg_1", *texts: str) -> JSONObject:
    """A message item whose output_text parts hold `texts`."""
    return {
        "type": "message",
        "id": item_id,
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": t, "annotations": []} for t in texts],
    }


def call_item(call_id: str, name: str, arguments: str = "", *, item_id: str = "fc_1") -> JSONObject:
    """A function_call item: `call_id` is what a tool result references, `id` the item's."""
    return {
        "type": "function_call",
        "id": item_id,
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
        "status": "completed",
    }


def text_delta(index: int, delta: str, *, item_id: str = "msg_1", part: int = 0) -> JSONObject:
    """`response.output_text.delta` for part `part` of the item at `index`."""
    return {
        "type": "response.output_text.delta",
        "item_id": item_id,
        "output_index": index,
        "content_index": part,
        "delta": delta,
    }


def text_done(index: int, text: str, *, item_id: str = "msg_1", part: int = 0) -> JSONObject:
    """`response.output_text.done` with the part's whole text."""
    return {
        "type": "response.output_text.done",
        "item_id": item_id,
        "output_index": index,
        "content_index": part,
        "text": text,
    }


def args_delta(index: int, delta: str, *, item_id: str = "fc_1") -> JSONObject:
    """`response.function_call_arguments.delta` for the call item at `index`."""
    return {
        "type": "response.function_call_arguments.delta",
        "item_id": item_id,
        "output_index": index,
        "delta": delta,
    }


def args_done(index: int, arguments: str, *, item_id: str = "fc_1") -> JSONObject:
    """`response.function_call_arguments.done` with the call's whole arguments."""
    return {
        "type": "response.function_call_arguments.done",
        "item_id": item_id,
        "output_index": index,
        "arguments": arguments,
    }


def usage_of(
    input_tokens: int, output_tokens: int, *, cached: int = 0, reasoning: int = 0
) -> JSONObject:
    """A Responses `usage` object."""
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": cached},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": input_tokens + output_tokens,
    }


def terminal(
    kind: str = "completed",
    *,
    usage: JSONObject | None = None,
    output: list[JSONObject] | None = None,
    **extra: Any,
) -> JSONObject:
    """`response.<kind>` (completed, incomplete, failed) with its whole response."""
    response: JSONObject = {
        "id": RESPONSE_ID,
        "object": "response",
        "created_at": CREATED_AT,
        "status": kind,
        "model": RESPONSE_MODEL,
        "output": output or [],
        **extra,
    }
    if usage is not None:
        response["usage"] = usage
    return {"type": f"response.{kind}", "response": response}


def text_response(*fragments: str, final: bool = True) -> list[JSON]:
    """A whole stream of one message whose text arrives in `fragments` (without its
    terminal when `final` is false: the body ended there)."""
    text = "".join(fragments)
    item = message_item("msg_1", text)
    return [
        created(),
        added(0, {**message_item("msg_1"), "status": "in_progress"}),
        *(text_delta(0, f) for f in fragments),
        text_done(0, text),
        item_done(0, item),
        *([terminal(output=[item])] if final else []),
    ]


def call_response(
    call_id: str, name: str, *fragments: str, arguments: str | None = None
) -> list[JSON]:
    """A whole stream of one function call whose arguments arrive in `fragments` (its
    `.done` events carry `arguments`, by default the fragments joined)."""
    whole = "".join(fragments) if arguments is None else arguments
    item = call_item(call_id, name, whole)
    return [
        created(),
        added(0, {**call_item(call_id, name), "status": "in_progress"}),
        *(args_delta(0, f) for f in fragments),
        args_done(0, whole),
        item_done(0, item),
        terminal(output=[item]),
    ]
