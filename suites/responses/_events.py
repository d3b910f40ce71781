"""Builders for hand-written OpenAI Responses streams and the Responses they fold into.

Written the way OpenAI's streaming reference writes its events: one small function per
event type, keyword arguments for the fields that vary, None for JSON null, every key
OpenAI's schema requires. No event carries an `obfuscation` unless a test adds one
(RS-UNKNOWN-KEYS's business); `expect_fold` numbers a stream that carries no
`sequence_number` (`numbered`), as OpenAI does.

Lifecycle: created, queued, in_progress, completed, incomplete, failed, terminal, numbered
Items:     item_added, item_done, part_added, part_done, text_delta, text_done,
           refusal_delta, refusal_done, args_delta, args_done, annotation_added,
           summary_part_added, summary_part_done, summary_delta, summary_done,
           reasoning_delta, reasoning_done, keepalive, error_event, text_stream, call_stream
Values:    message, text_part, refusal_part, function_call, reasoning, summary_text,
           reasoning_text, web_search, response
Wire:      frame (one SSE frame as bytes)
"""

from __future__ import annotations

import json
from typing import Any

from refold.reference import JSON, JSONObject

ENVELOPE: JSONObject = {
    "id": "resp_01",
    "object": "response",
    "created_at": 1750000000,
    "model": "gpt-5",
    "error": None,
    "incomplete_details": None,
    "instructions": None,
    "tools": [],
    "tool_choice": "auto",
    "parallel_tool_calls": True,
    "metadata": {},
    "temperature": 1.0,
    "top_p": 1.0,
}
"""The top-level keys every response of an example has unless it overrides one: every key
OpenAI's Response schema requires, as the API sends them. No usage: usage belongs to the
`usage` feature."""

MSG = "msg_01"
FC = "fc_01"
RS = "rs_01"


# Values


def response(*output: JSONObject, status: str = "completed", **fields: Any) -> JSONObject:
    """A Response with the default envelope: the terminal's `response`, or the expectation."""
    return {**ENVELOPE, "status": status, "output": list(output), **fields}


def text_part(text: Any = "", annotations: Any = None, **extra: Any) -> JSONObject:
    """An `output_text` content part (`annotations: []` and `logprobs: []` unless given)."""
    return {
        "type": "output_text",
        "text": text,
        "annotations": [] if annotations is None else annotations,
        "logprobs": [],
        **extra,
    }


def refusal_part(refusal: Any = "", **extra: Any) -> JSONObject:
    """A `refusal` content part."""
    return {"type": "refusal", "refusal": refusal, **extra}


def message(
    *content: JSONObject, id: Any = MSG, status: Any = "completed", **extra: Any
) -> JSONObject:
    """A `message` item of the assistant."""
    item: JSONObject = {
        "type": "message",
        "id": id,
        "status": status,
        "role": "assistant",
        "content": list(content),
        **extra,
    }
    return item


def function_call(
    arguments: Any = "",
    *,
    id: Any = FC,
    call_id: Any = "call_01",
    name: Any = "get_weather",
    status: Any = "completed",
    **extra: Any,
) -> JSONObject:
    """A `function_call` item (`id=None` leaves the key out: RQ10)."""
    item: JSONObject = {
        "type": "function_call",
        "id": id,
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
        "status": status,
        **extra,
    }
    if id is None:
        del item["id"]
    return item


def summary_text(text: str = "") -> JSONObject:
    """A `summary_text` part of a reasoning item."""
    return {"type": "summary_text", "text": text}


def reasoning_text(text: str = "") -> JSONObject:
    """A `reasoning_text` content part of a reasoning item (gpt-oss)."""
    return {"type": "reasoning_text", "text": text}


def reasoning(*summary: JSONObject, id: Any = RS, **extra: Any) -> JSONObject:
    """A `reasoning` item."""
    return {"type": "reasoning", "id": id, "summary": list(summary), **extra}


def web_search(id: str = "ws_01", status: str = "completed", **extra: Any) -> JSONObject:
    """A hosted `web_search_call` item."""
    return {
        "type": "web_search_call",
        "id": id,
        "status": status,
        "action": {"type": "search", "query": "weather paris"},
        **extra,
    }


# Lifecycle events


def created(**fields: Any) -> JSONObject:
    """`response.created`: status in_progress, output []."""
    return {"type": "response.created", "response": response(status="in_progress", **fields)}


def queued(**fields: Any) -> JSONObject:
    """`response.queued`."""
    return {"type": "response.queued", "response": response(status="queued", **fields)}


def in_progress(**fields: Any) -> JSONObject:
    """`response.in_progress`."""
    return {"type": "response.in_progress", "response": response(status="in_progress", **fields)}


def terminal(kind: str, body: Any) -> JSONObject:
    """A terminal event of `kind` (completed, incomplete, failed) carrying exactly `body`."""
    return {"type": f"response.{kind}", "response": body}


def completed(*output: JSONObject, **fields: Any) -> JSONObject:
    """`response.completed` whose output is `output`."""
    return terminal("completed", response(*output, **fields))


def incomplete(*output: JSONObject, reason: str = "max_output_tokens", **fields: Any) -> JSONObject:
    """`response.incomplete` with `incomplete_details.reason`."""
    return terminal(
        "incomplete",
        response(*output, status="incomplete", incomplete_details={"reason": reason}, **fields),
    )


def failed(
    *output: JSONObject,
    code: str = "server_error",
    message: str = "The server had an error while processing your request.",
    **fields: Any,
) -> JSONObject:
    """`response.failed` with its `error` object."""
    return terminal(
        "failed",
        response(*output, status="failed", error={"code": code, "message": message}, **fields),
    )


# Item events


def item_added(index: Any, item: Any) -> JSONObject:
    """`response.output_item.added`."""
    return {"type": "response.output_item.added", "output_index": index, "item": item}


def item_done(index: Any, item: Any) -> JSONObject:
    """`response.output_item.done`."""
    return {"type": "response.output_item.done", "output_index": index, "item": item}


def _at(kind: str, index: Any, item_id: Any, **fields: Any) -> JSONObject:
    event: JSONObject = {
        "type": f"response.{kind}",
        "item_id": item_id,
        "output_index": index,
        **fields,
    }
    if item_id is None:
        del event["item_id"]
    return event


def part_added(
    index: Any = 0, part: Any = None, content_index: Any = 0, item_id: Any = MSG
) -> JSONObject:
    """`response.content_part.added` (an empty output_text part unless given)."""
    return _at(
        "content_part.added",
        index,
        item_id,
        content_index=content_index,
        part=text_part() if part is None else part,
    )


def part_done(index: Any, part: Any, content_index: Any = 0, item_id: Any = MSG) -> JSONObject:
    """`response.content_part.done`."""
    return _at("content_part.done", index, item_id, content_index=content_index, part=part)


def text_delta(
    index: Any, delta: Any, content_index: Any = 0, item_id: Any = MSG, **extra: Any
) -> JSONObject:
    """`response.output_text.delta` (`logprobs: []` unless given)."""
    return _at(
        "output_text.delta",
        index,
        item_id,
        content_index=content_index,
        delta=delta,
        **{"logprobs": [], **extra},
    )


def text_done(index: Any, text: Any, content_index: Any = 0, item_id: Any = MSG) -> JSONObject:
    """`response.output_text.done`."""
    return _at(
        "output_text.done", index, item_id, content_index=content_index, text=text, logprobs=[]
    )


def refusal_delta(index: Any, delta: Any, content_index: Any = 0, item_id: Any = MSG) -> JSONObject:
    """`response.refusal.delta`."""
    return _at("refusal.delta", index, item_id, content_index=content_index, delta=delta)


def refusal_done(
    index: Any, refusal: Any, content_index: Any = 0, item_id: Any = MSG
) -> JSONObject:
    """`response.refusal.done`."""
    return _at("refusal.done", index, item_id, content_index=content_index, refusal=refusal)


def args_delta(index: Any, delta: Any, item_id: Any = FC) -> JSONObject:
    """`response.function_call_arguments.delta`."""
    return _at("function_call_arguments.delta", index, item_id, delta=delta)


def args_done(
    index: Any, arguments: Any, item_id: Any = FC, name: Any = "get_weather"
) -> JSONObject:
    """`response.function_call_arguments.done` (`name=None` leaves it out, as openai-dotnet
    #424 saw OpenAI send it: RS-DOC-ARGS-NAME)."""
    event = _at("function_call_arguments.done", index, item_id, arguments=arguments)
    return event if name is None else {**event, "name": name}


def annotation_added(
    index: Any,
    annotation: Any,
    annotation_index: Any = 0,
    content_index: Any = 0,
    item_id: Any = MSG,
) -> JSONObject:
    """`response.output_text.annotation.added`."""
    return _at(
        "output_text.annotation.added",
        index,
        item_id,
        content_index=content_index,
        annotation_index=annotation_index,
        annotation=annotation,
    )


def summary_part_added(index: Any, summary_index: Any = 0, item_id: Any = RS) -> JSONObject:
    """`response.reasoning_summary_part.added` (an empty summary_text part)."""
    return _at(
        "reasoning_summary_part.added",
        index,
        item_id,
        summary_index=summary_index,
        part=summary_text(),
    )


def summary_part_done(
    index: Any, part: Any, summary_index: Any = 0, item_id: Any = RS
) -> JSONObject:
    """`response.reasoning_summary_part.done`."""
    return _at(
        "reasoning_summary_part.done", index, item_id, summary_index=summary_index, part=part
    )


def summary_delta(index: Any, delta: Any, summary_index: Any = 0, item_id: Any = RS) -> JSONObject:
    """`response.reasoning_summary_text.delta`."""
    return _at(
        "reasoning_summary_text.delta", index, item_id, summary_index=summary_index, delta=delta
    )


def summary_done(index: Any, text: Any, summary_index: Any = 0, item_id: Any = RS) -> JSONObject:
    """`response.reasoning_summary_text.done`."""
    return _at(
        "reasoning_summary_text.done", index, item_id, summary_index=summary_index, text=text
    )


def reasoning_delta(
    index: Any, delta: Any, content_index: Any = 0, item_id: Any = RS
) -> JSONObject:
    """`response.reasoning_text.delta` (gpt-oss)."""
    return _at("reasoning_text.delta", index, item_id, content_index=content_index, delta=delta)


def reasoning_done(index: Any, text: Any, content_index: Any = 0, item_id: Any = RS) -> JSONObject:
    """`response.reasoning_text.done`."""
    return _at("reasoning_text.done", index, item_id, content_index=content_index, text=text)


def keepalive() -> JSONObject:
    """openai-node's transport `keepalive` event."""
    return {"type": "keepalive"}


def error_event(
    code: str = "server_error", message: str = "The server had an error", **extra: Any
) -> JSONObject:
    """A top-level `error` event, flat as openai-python types it."""
    return {"type": "error", "code": code, "message": message, "param": None, **extra}


def numbered(events: list[JSON]) -> list[JSON]:
    """`events` with `sequence_number` 0, 1, 2 ... as OpenAI numbers them, when none of
    them carries one (a stream that numbers some is about numbering: RS-SEQ-ARRIVAL)."""
    if any(isinstance(e, dict) and "sequence_number" in e for e in events):
        return events
    return [{**e, "sequence_number": n} if isinstance(e, dict) else e for n, e in enumerate(events)]


def text_stream(*texts: str, terminal_output: bool = True) -> list[JSONObject]:
    """OpenAI's own shape (family 1): one message streamed as `texts`, every `.done`
    event, and `response.completed` with the whole response (or `output: []`)."""
    whole = "".join(texts)
    done = message(text_part(whole))
    return [
        created(),
        in_progress(),
        item_added(0, message(status="in_progress")),
        part_added(0),
        *(text_delta(0, part) for part in texts),
        text_done(0, whole),
        part_done(0, text_part(whole)),
        item_done(0, done),
        completed(*([done] if terminal_output else [])),
    ]


def call_stream(
    *fragments: str, index: int = 0, id: str = FC, call_id: str = "call_01"
) -> list[JSONObject]:
    """The item events of one function call at `index` (item `id`, `call_id`), its
    arguments streamed as `fragments`, with its `.done` events (no lifecycle events)."""
    whole = "".join(fragments)
    return [
        item_added(index, function_call(id=id, call_id=call_id, status="in_progress")),
        *(args_delta(index, part, item_id=id) for part in fragments),
        args_done(index, whole, item_id=id),
        item_done(index, function_call(whole, id=id, call_id=call_id)),
    ]


# Wire


def frame(data: JSON | str, event: str | None = None) -> bytes:
    """One SSE frame: an optional `event:` line, one `data:` line, the blank line.

    `data` is sent as JSON (UTF-8, not ASCII-escaped) unless it is a string, which is sent
    as it is."""
    text_data = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    name = f"event: {event}\n" if event is not None else ""
    return f"{name}data: {text_data}\n\n".encode()
