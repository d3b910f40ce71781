"""Frame builders for the hand-written events examples: small readable streams.

Chat frames are chunk objects of one envelope (`CHAT_ID`, `CHAT_MODEL`) and the string
`DONE` where the sentinel arrived; Anthropic frames are Messages events of one message
(`MESSAGE_ID`, `MESSAGE_MODEL`). The `*_event` builders are the events a correct adapter
emits, as strip(E) shows them (events.md §3: no `opaque`, no `payload`), which is what the
examples compare.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject

from . import _responses_frames as responses_frames

DONE = "[DONE]"
"""The Chat sentinel as a frame (events.md §4.1)."""

CHAT_ID = "chatcmpl-ex"
CHAT_MODEL = "gpt-4o-mini-2024-07-18"
MESSAGE_ID = "msg_ex"
MESSAGE_MODEL = "claude-sonnet-4-5"

NULL_USAGE: JSONObject = dict.fromkeys(
    ("input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens")
)
"""TokenUsage with nothing reported (EV-USAGE-UNREPORTED)."""


# --- OpenAI Chat chunks ----------------------------------------------------------------


def chunk(delta: JSONObject | None = None, finish: str | None = None, **extra: Any) -> JSONObject:
    """One chunk of choice 0: `delta`, and `finish_reason` when given."""
    choice: JSONObject = {"index": 0, "delta": {} if delta is None else delta}
    if finish is not None:
        choice["finish_reason"] = finish
    return {
        "id": CHAT_ID,
        "object": "chat.completion.chunk",
        "created": 1,
        "model": CHAT_MODEL,
        "choices": [choice],
        **extra,
    }


def role() -> JSONObject:
    """The role-only first chunk."""
    return chunk({"role": "assistant"})


def content(text: str) -> JSONObject:
    """A chunk carrying one public text fragment."""
    return chunk({"content": text})


def tool(
    index: int = 0,
    *,
    call_id: str | None = None,
    name: str | None = None,
    arguments: str | None = None,
) -> JSONObject:
    """A chunk carrying one `tool_calls` fragment for `index`."""
    fragment: JSONObject = {"index": index}
    if call_id is not None:
        fragment.update(id=call_id, type="function")
    function: JSONObject = {}
    if name is not None:
        function["name"] = name
    if arguments is not None:
        function["arguments"] = arguments
    if function:
        fragment["function"] = function
    return chunk({"tool_calls": [fragment]})


def finish(reason: str = "stop") -> JSONObject:
    """The chunk giving choice 0 its finish reason, with an empty delta."""
    return chunk({}, reason)


def usage_chunk(
    prompt: int, completion: int, *, cached: int | None = None, reasoning: int | None = None
) -> JSONObject:
    """The choice-less usage chunk (`stream_options.include_usage`)."""
    usage: JSONObject = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    if cached is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached}
    if reasoning is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
    return {**chunk(), "choices": [], "usage": usage}


def chat(
    *middle: JSON, reason: str = "stop", usage: JSONObject | None = None, done: bool = True
) -> list[JSON]:
    """A whole Chat stream: the role chunk, `middle`, the finish chunk, then the usage
    chunk when given and `[DONE]` unless `done` is false (the body ended there)."""
    tail: list[JSON] = [usage] if usage is not None else []
    return [role(), *middle, finish(reason), *tail, *([DONE] if done else [])]


# --- Anthropic Messages events ---------------------------------------------------------


def message_start(input_tokens: int = 10, output_tokens: int = 1, **usage: int) -> JSONObject:
    """`message_start` with its initial usage snapshot."""
    return {
        "type": "message_start",
        "message": {
            "id": MESSAGE_ID,
            "type": "message",
            "role": "assistant",
            "model": MESSAGE_MODEL,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens, **usage},
        },
    }


def block_start(index: int, block: JSONObject) -> JSONObject:
    """`content_block_start` of `block` at `index`."""
    return {"type": "content_block_start", "index": index, "content_block": block}


def text_start(index: int, text: str = "") -> JSONObject:
    """A text block's start."""
    return block_start(index, {"type": "text", "text": text})


def tool_start(index: int, call_id: str, name: str) -> JSONObject:
    """A client tool_use block's start (its input arrives as `input_json_delta`)."""
    return block_start(index, {"type": "tool_use", "id": call_id, "name": name, "input": {}})


def block_delta(index: int, kind: str, **fields: Any) -> JSONObject:
    """`content_block_delta` of `kind` at `index`."""
    return {"type": "content_block_delta", "index": index, "delta": {"type": kind, **fields}}


def text_delta(index: int, text: str) -> JSONObject:
    """A `text_delta` fragment."""
    return block_delta(index, "text_delta", text=text)


def json_delta(index: int, partial: str) -> JSONObject:
    """An `input_json_delta` fragment."""
    return block_delta(index, "input_json_delta", partial_json=partial)


def block_stop(index: int) -> JSONObject:
    """`content_block_stop` at `index`."""
    return {"type": "content_block_stop", "index": index}


def ping() -> JSONObject:
    """A keep-alive `ping`."""
    return {"type": "ping"}


def message_delta(stop_reason: str = "end_turn", output_tokens: int | None = 9) -> JSONObject:
    """`message_delta` with the stop reason and, unless None, the cumulative usage."""
    event: JSONObject = {
        "type": "message_delta",
        "delta": {"stop_reason": stop_reason, "stop_sequence": None},
    }
    if output_tokens is not None:
        event["usage"] = {"output_tokens": output_tokens}
    return event


def message_stop() -> JSONObject:
    """`message_stop`, the stream's terminal."""
    return {"type": "message_stop"}


def message(
    *blocks: JSON, reason: str = "end_turn", output_tokens: int | None = 9, stop: bool = True
) -> list[JSON]:
    """A whole Anthropic stream: message_start, `blocks`, message_delta, message_stop
    (left out when `stop` is false: the body ended there)."""
    return [
        message_start(),
        *blocks,
        message_delta(reason, output_tokens),
        *([message_stop()] if stop else []),
    ]


def text_block(index: int, *fragments: str) -> list[JSON]:
    """A whole text block of `fragments`."""
    return [text_start(index), *(text_delta(index, f) for f in fragments), block_stop(index)]


def tool_block(index: int, call_id: str, name: str, *partials: str) -> list[JSON]:
    """A whole tool_use block whose input arrives in `partials`."""
    return [
        tool_start(index, call_id, name),
        *(json_delta(index, p) for p in partials),
        block_stop(index),
    ]


# --- Either source ---------------------------------------------------------------------


def text_stream(source: str, *fragments: str) -> list[JSON]:
    """A completed stream of `source` whose only public text is `fragments`."""
    if source == "openai-chat":
        return chat(*(content(f) for f in fragments))
    if source == "openai-responses":
        return responses_frames.text_response(*fragments)
    return message(*text_block(0, *fragments))


def call_stream(
    source: str, call_id: str, name: str, *partials: str, reason: str | None = None
) -> list[JSON]:
    """A completed stream of `source` with one client tool call whose arguments arrive
    in `partials` (the first Chat fragment carries the id and the name)."""
    if source == "openai-chat":
        first, *rest = partials or ("",)
        return chat(
            tool(0, call_id=call_id, name=name, arguments=first),
            *(tool(0, arguments=p) for p in rest),
            reason=reason or "tool_calls",
        )
    if source == "openai-responses":  # the call's first frame is its output_item.added
        return responses_frames.call_response(call_id, name, *partials)
    return message(*tool_block(0, call_id, name, *partials), reason=reason or "tool_use")


# --- Events as strip(E) shows them -----------------------------------------------------


def text_event(delta: str) -> JSONObject:
    """A stripped TextDelta."""
    return {"type": "TextDelta", "delta": delta}


def started_event(call_id: str, name: str) -> JSONObject:
    """A stripped ToolCallStarted."""
    return {"type": "ToolCallStarted", "id": call_id, "name": name}


def args_event(call_id: str, delta: str) -> JSONObject:
    """A stripped ToolCallArgumentsDelta."""
    return {"type": "ToolCallArgumentsDelta", "id": call_id, "delta": delta}


def completed_event(call_id: str, name: str, arguments: JSONObject) -> JSONObject:
    """A stripped ToolCallCompleted."""
    return {
        "type": "ToolCallCompleted",
        "call": {"id": call_id, "name": name, "arguments": arguments},
    }


def usage_event(
    input_tokens: int | None,
    output_tokens: int | None,
    *,
    cached: int | None = None,
    reasoning: int | None = None,
) -> JSONObject:
    """A stripped Usage with the normalised counters."""
    return {
        "type": "Usage",
        "usage": {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "cached_input_tokens": cached,
            "reasoning_tokens": reasoning,
        },
    }


def opaque_event(event_type: str) -> JSONObject:
    """A stripped Opaque."""
    return {"type": "Opaque", "event_type": event_type}


CALL_KINDS = frozenset({"ToolCallStarted", "ToolCallArgumentsDelta", "ToolCallCompleted"})
"""The event types of a client tool call."""
