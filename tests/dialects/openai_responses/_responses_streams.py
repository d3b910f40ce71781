"""Hand-written OpenAI Responses event streams for the SDK-target and broken-example tests.

Each builder writes one event as OpenAI's API sends it (responses-fold.md, research
responses-fold.md §2); a stream is a list of them. `response()` is a lifecycle or terminal
`response` object; `message_events`/`call_events` are one item's events from
`output_item.added` to `output_item.done`, in the API's order.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject

USAGE: JSONObject = {
    "input_tokens": 12,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 5,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 17,
}


def response(status: str = "in_progress", output: Any = (), **fields: Any) -> JSONObject:
    """A Response object as lifecycle and terminal events carry it."""
    body: JSONObject = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1700000000,
        "status": status,
        "model": "gpt-4.1",
    }
    if output is not None:
        body["output"] = list(output) if isinstance(output, (list, tuple)) else output
    else:
        body["output"] = None
    body.update(fields)
    return body


def created() -> JSONObject:
    return {"type": "response.created", "response": response()}


def terminal(kind: str = "completed", output: Any = (), **fields: Any) -> JSONObject:
    """`response.completed|incomplete|failed` with a Response of that status."""
    fields.setdefault("usage", USAGE)
    return {"type": f"response.{kind}", "response": response(kind, output, **fields)}


def message(item_id: str = "msg_1", *parts: JSONObject, status: str = "completed") -> JSONObject:
    return {
        "type": "message",
        "id": item_id,
        "status": status,
        "role": "assistant",
        "content": list(parts),
    }


def output_text(text: str, annotations: list[JSON] | None = None) -> JSONObject:
    return {"type": "output_text", "text": text, "annotations": annotations or []}


def call(
    arguments: str = '{"city": "Paris"}',
    *,
    call_id: str = "call_abc",
    item_id: str | None = "fc_1",
    status: str = "completed",
) -> JSONObject:
    item: JSONObject = {
        "type": "function_call",
        "call_id": call_id,
        "name": "weather",
        "arguments": arguments,
        "status": status,
    }
    if item_id is not None:
        item["id"] = item_id
    return item


def _at(kind: str, index: int, item_id: str, **fields: Any) -> JSONObject:
    return {"type": f"response.{kind}", "item_id": item_id, "output_index": index, **fields}


def added(index: int, item: JSONObject) -> JSONObject:
    return {"type": "response.output_item.added", "output_index": index, "item": item}


def done(index: int, item: JSONObject) -> JSONObject:
    return {"type": "response.output_item.done", "output_index": index, "item": item}


def message_events(
    index: int, final: JSONObject, *, deltas: bool = True, dones: bool = True
) -> list[JSONObject]:
    """One message item's events: added, each part added/deltas/done, done. `deltas`:
    the text arrives as two deltas (else only on `.done`); `dones`: the `.done` events."""
    item_id = str(final["id"])
    events = [added(index, {**final, "status": "in_progress", "content": []})]
    for n, part in enumerate(final["content"]):
        kind = part["type"]
        field = "text" if kind == "output_text" else "refusal"
        channel = "output_text" if kind == "output_text" else "refusal"
        value = str(part[field])
        opened = {**part, field: ""}
        if "annotations" in part:
            opened["annotations"] = []  # annotations arrive by annotation.added
        events.append(_at("content_part.added", index, item_id, content_index=n, part=opened))
        if deltas:
            half = len(value) // 2
            events += [
                _at(f"{channel}.delta", index, item_id, content_index=n, delta=piece)
                for piece in (value[:half], value[half:])
            ]
        for a, annotation in enumerate(part.get("annotations") or []):
            events.append(
                _at(
                    "output_text.annotation.added",
                    index,
                    item_id,
                    content_index=n,
                    annotation_index=a,
                    annotation=annotation,
                )
            )
        if dones:
            events += [
                _at(f"{channel}.done", index, item_id, content_index=n, **{field: value}),
                _at("content_part.done", index, item_id, content_index=n, part=part),
            ]
    return [*events, done(index, final)] if dones else events


def call_events(index: int, final: JSONObject, *, deltas: bool = True) -> list[JSONObject]:
    """One function call's events; `deltas`: the arguments also arrive as deltas (else only
    on `function_call_arguments.done` and `output_item.done`, the Codex shape, RQ3)."""
    item_id = str(final.get("id", ""))
    arguments = str(final["arguments"])
    events = [added(index, {**final, "arguments": "", "status": "in_progress"})]
    if deltas:
        half = len(arguments) // 2
        events += [
            _at("function_call_arguments.delta", index, item_id, delta=piece)
            for piece in (arguments[:half], arguments[half:])
        ]
    events.append(_at("function_call_arguments.done", index, item_id, arguments=arguments))
    return [*events, done(index, final)]


HELLO_ITEM = message("msg_1", output_text("Hello there"))
HELLO: list[JSON] = [created(), *message_events(0, HELLO_ITEM), terminal(output=[HELLO_ITEM])]
"""OpenAI's own shape: one message, its text in two deltas, the whole terminal response."""
