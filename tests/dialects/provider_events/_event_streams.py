"""Hand-written streams for the event checker's tests: one valid stream per dialect.

In both streams event i comes from frame i (Chat: `[DONE]` is the last frame and the
Completed its event; Anthropic: `message_stop` and the Completed), so a test names an
event and its frame with one position from `Case.at`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from refold.reference.anthropic import fold as message_fold
from refold.reference.chat import fold as chat_fold

DIALECTS = ("openai-chat", "anthropic-messages")
PROVIDER = "refold-test"
NULL_USAGE = dict.fromkeys(
    ("input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens")
)
CANARIES = ("CANARY-fp", "CANARY-a1")

_CHAT_ENV = {
    "id": "chatcmpl-ev",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "gpt-4o-mini-2024-07-18",
}


@dataclass
class Case:
    """One stream: frames, the events a correct adapter emits, its outcome, positions."""

    dialect: str
    frames: list[Any]
    events: list[Any]
    outcome: Any
    at: dict[str, int] = field(default_factory=dict)

    @property
    def turn(self) -> dict[str, Any]:
        turn: dict[str, Any] = self.events[-1]["turn"]
        return turn


def text(delta: str, frame: Any) -> dict[str, Any]:
    return {"type": "TextDelta", "delta": delta, "opaque": frame}


def opaque(frame: Any, event_type: str = "message") -> dict[str, Any]:
    return {"type": "Opaque", "event_type": event_type, "payload": frame}


def started(call_id: str, frame: Any) -> dict[str, Any]:
    return {"type": "ToolCallStarted", "id": call_id, "name": "get_weather", "opaque": frame}


def delta(call_id: str, fragment: str, frame: Any) -> dict[str, Any]:
    return {"type": "ToolCallArgumentsDelta", "id": call_id, "delta": fragment, "opaque": frame}


def completed_call(call_id: str, frame: Any, arguments: Any = None) -> dict[str, Any]:
    call = {
        "id": call_id,
        "name": "get_weather",
        "arguments": {"city": "Paris"} if arguments is None else arguments,
    }
    return {"type": "ToolCallCompleted", "call": call, "opaque": frame}


def usage(
    frame: Any, input_tokens: int | None, output_tokens: int | None, cached: int | None = None
) -> dict[str, Any]:
    counters = {
        **NULL_USAGE,
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cached_input_tokens": cached,
    }
    return {"type": "Usage", "usage": counters, "opaque": frame}


def folded(dialect: str, frames: list[Any]) -> Any:
    """The dialect fold of the frames: a correct turn's opaque."""
    if dialect == "openai-chat":
        return chat_fold([f for f in frames if isinstance(f, dict)])
    return message_fold(frames)


def _chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": 0, "delta": delta}
    if finish is not None:
        choice["finish_reason"] = finish
    return {**_CHAT_ENV, "choices": [choice], **extra}


def _tool(**fields: Any) -> dict[str, Any]:
    return {"tool_calls": [{"index": 0, **fields}]}


def chat_frames(*, finish: str = "tool_calls", last: str = ':"Paris"}') -> list[Any]:
    return [
        _chunk({"role": "assistant"}, system_fingerprint="CANARY-fp"),
        _chunk({"content": "Hel"}),
        _chunk({"content": "lo"}),
        _chunk(
            _tool(id="call_w1", type="function", function={"name": "get_weather", "arguments": ""})
        ),
        _chunk(_tool(function={"arguments": '{"city"'})),
        _chunk(_tool(function={"arguments": last})),
        _chunk({}, finish),
        {
            **_CHAT_ENV,
            "choices": [],
            "usage": {
                "prompt_tokens": 5,
                "completion_tokens": 7,
                "prompt_tokens_details": {"cached_tokens": 2},
            },
        },
        "[DONE]",
    ]


def message_frames(*, stop: str = "tool_use", last: str = ':"Paris"}') -> list[Any]:
    def block(index: int, kind: str, **fields: Any) -> dict[str, Any]:
        return {"type": "content_block_delta", "index": index, "delta": {"type": kind, **fields}}

    return [
        {
            "type": "message_start",
            "message": {
                "id": "msg_ev",
                "type": "message",
                "role": "assistant",
                "model": "claude-x",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 1},
            },
        },
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "text", "text": ""},
            "x_canary": "CANARY-a1",
        },
        block(0, "text_delta", text="Hel"),
        block(0, "text_delta", text="lo"),
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {
                "type": "tool_use",
                "id": "toolu_w1",
                "name": "get_weather",
                "input": {},
            },
        },
        block(1, "input_json_delta", partial_json='{"city"'),
        block(1, "input_json_delta", partial_json=last),
        {"type": "content_block_stop", "index": 1},
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ]


def turn(dialect: str, frames: list[Any], **changes: Any) -> dict[str, Any]:
    chat = dialect == "openai-chat"
    call_id = "call_w1" if chat else "toolu_w1"
    value = {
        "provider": PROVIDER,
        "model": _CHAT_ENV["model"] if chat else "claude-x",
        "response_id": "chatcmpl-ev" if chat else "msg_ev",
        "output_text": "Hello",
        "tool_calls": [{"id": call_id, "name": "get_weather", "arguments": {"city": "Paris"}}],
        "stop_reason": "tool_use",
        "usage": {**NULL_USAGE, "input_tokens": 5, "output_tokens": 7, "cached_input_tokens": 2}
        if chat
        else {**NULL_USAGE, "input_tokens": 10, "output_tokens": 9},
        "opaque": folded(dialect, frames),
    }
    return {**value, **changes}


def chat_case(**frame_changes: Any) -> Case:
    f = chat_frames(**frame_changes)
    events = [
        opaque(f[0]),
        text("Hel", f[1]),
        text("lo", f[2]),
        started("call_w1", f[3]),
        delta("call_w1", '{"city"', f[4]),
        delta("call_w1", ':"Paris"}', f[5]),
        completed_call("call_w1", f[6]),
        usage(f[7], 5, 7, 2),
        {"type": "Completed", "turn": turn("openai-chat", f)},
    ]
    at = {
        "first": 0,
        "text1": 1,
        "text2": 2,
        "started": 3,
        "delta1": 4,
        "delta2": 5,
        "call_done": 6,
        "usage": 7,
        "completed": 8,
    }
    return Case("openai-chat", f, copy.deepcopy(events), "completed", at)


def message_case(**frame_changes: Any) -> Case:
    f = message_frames(**frame_changes)
    events = [
        usage(f[0], 10, 1),
        opaque(f[1], "content_block_start"),
        text("Hel", f[2]),
        text("lo", f[3]),
        opaque(f[4], "content_block_stop"),
        started("toolu_w1", f[5]),
        delta("toolu_w1", '{"city"', f[6]),
        delta("toolu_w1", ':"Paris"}', f[7]),
        completed_call("toolu_w1", f[8]),
        usage(f[9], 10, 9),
        {"type": "Completed", "turn": turn("anthropic-messages", f)},
    ]
    at = {
        "first": 1,
        "text1": 2,
        "text2": 3,
        "started": 5,
        "delta1": 6,
        "delta2": 7,
        "call_done": 8,
        "usage": 9,
        "completed": 10,
    }
    return Case("anthropic-messages", f, copy.deepcopy(events), "completed", at)


def case(dialect: str, **frame_changes: Any) -> Case:
    """The valid complete stream of `dialect`: text, one tool call, usage."""
    return chat_case(**frame_changes) if dialect == "openai-chat" else message_case(**frame_changes)


def error_frame(dialect: str) -> dict[str, Any]:
    if dialect == "openai-chat":
        return {"error": {"message": "overloaded", "type": "server_error"}}
    return {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}


def errored_case(dialect: str, *, after: str = "call_done") -> Case:
    """The valid stream cut by a provider error frame right after position `after`."""
    full = case(dialect)
    cut = full.at[after] + 1
    bad = error_frame(dialect)
    name = "message" if dialect == "openai-chat" else "error"
    return Case(
        dialect,
        [*full.frames[:cut], bad],
        [*full.events[:cut], opaque(bad, name)],
        {"outcome": "error", "error": {"kind": "provider_error", "message": "x"}},
        {**full.at, "error": cut},
    )
