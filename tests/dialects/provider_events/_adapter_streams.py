"""Hand-written provider streams for the events adapter tests (broken, Node): each a dialect
and its frames, Chat frames ending with "[DONE]" where it arrived. Canaries are planted
outside the portable fields (a Chat `system_fingerprint`, an unknown Anthropic key)."""

from __future__ import annotations

from typing import Any

_ENV = {
    "id": "chatcmpl-bx",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "gpt-4o-mini-2024-07-18",
}
CANARIES = ("CANARY-fp", "CANARY-a1")


def _chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": 0, "delta": delta}
    if finish is not None:
        choice["finish_reason"] = finish
    return {**_ENV, "choices": [choice], **extra}


def _call(index: int, **fields: Any) -> dict[str, Any]:
    return {"tool_calls": [{"index": index, **fields}]}


def _start(index: int, call_id: str, arguments: str = "") -> dict[str, Any]:
    return _call(
        index, id=call_id, type="function", function={"name": "get_weather", "arguments": arguments}
    )


_ROLE = _chunk({"role": "assistant", "content": ""}, system_fingerprint="CANARY-fp")
_USAGE = {"prompt_tokens": 5, "completion_tokens": 7, "prompt_tokens_details": {"cached_tokens": 2}}
_CHAT_USAGE = {**_ENV, "choices": [], "usage": _USAGE}

_MESSAGE_START = {
    "type": "message_start",
    "message": {
        "id": "msg_bx",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    },
}


def _block(index: int, kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": {"type": kind, **fields}}


def _started(index: int, block: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block, **extra}


_TEXT_BLOCK = [
    _started(0, {"type": "text", "text": ""}, x_canary="CANARY-a1"),
    _block(0, "text_delta", text="Hel"),
    _block(0, "text_delta", text="lo"),
]
_TOOL_BLOCK = [
    _started(1, {"type": "tool_use", "id": "toolu_b1", "name": "get_weather", "input": {}}),
    _block(1, "input_json_delta", partial_json=""),
    _block(1, "input_json_delta", partial_json='{"city"'),
    _block(1, "input_json_delta", partial_json=':"Paris"}'),
    {"type": "content_block_stop", "index": 1},
]


def _message_end(stop: str) -> list[Any]:
    return [
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ]


STREAMS: dict[str, tuple[str, list[Any]]] = {
    "chat_text_and_call": (
        "openai-chat",
        [
            _ROLE,
            _chunk({"content": "Hel"}),
            _chunk({"content": "lo"}),
            _chunk(_start(0, "call_b1")),
            _chunk(_call(0, function={"arguments": '{"city"'})),
            _chunk(_call(0, function={"arguments": ':"Paris"}'})),
            _chunk({}, "tool_calls"),
            _CHAT_USAGE,
            "[DONE]",
        ],
    ),
    "chat_truncated": (
        "openai-chat",
        [_ROLE, _chunk({"content": "Hel"}), _chunk({"content": "lo"})],
    ),
    "chat_cumulative_usage": (
        "openai-chat",
        [_ROLE, _chunk({"content": "Hi"}), _chunk({}, "stop", usage=_USAGE), _CHAT_USAGE, "[DONE]"],
    ),
    "chat_call_in_one_frame": (
        "openai-chat",
        [
            _ROLE,
            _chunk(_start(0, "call_b1", '{"city":"Paris"}')),
            _chunk(_call(0, function={"arguments": "\n"})),
            _chunk({}, "tool_calls"),
            "[DONE]",
        ],
    ),
    "chat_two_calls": (
        "openai-chat",
        [
            _ROLE,
            _chunk(_start(0, "call_b1", '{"city":')),
            _chunk(_call(0, function={"arguments": '"Paris"}'})),
            _chunk(_start(1, "call_b2", '{"city":"Oslo"}')),
            _chunk({}, "tool_calls"),
            "[DONE]",
        ],
    ),
    "chat_reasoning": (
        "openai-chat",
        [
            _ROLE,
            _chunk({"reasoning_content": "Think."}),
            _chunk({"content": "Hi"}),
            _chunk({}, "stop"),
            "[DONE]",
        ],
    ),
    "message_text_and_call": (
        "anthropic-messages",
        [
            _MESSAGE_START,
            *_TEXT_BLOCK,
            {"type": "content_block_stop", "index": 0},
            *_TOOL_BLOCK,
            *_message_end("tool_use"),
        ],
    ),
    "message_truncated": ("anthropic-messages", [_MESSAGE_START, *_TEXT_BLOCK]),
    "message_thinking": (
        "anthropic-messages",
        [
            _MESSAGE_START,
            _started(0, {"type": "thinking", "thinking": "", "signature": ""}),
            _block(0, "thinking_delta", thinking="Think."),
            _block(0, "signature_delta", signature="c2ln"),
            {"type": "content_block_stop", "index": 0},
            _started(1, {"type": "text", "text": ""}, x_canary="CANARY-a1"),
            _block(1, "text_delta", text="Hi"),
            {"type": "content_block_stop", "index": 1},
            *_message_end("end_turn"),
        ],
    ),
}
"""Hand-written streams: Chat frames end with "[DONE]" where it arrived."""

_ERROR_CHUNK = {"error": {"message": "overloaded", "type": "server_error"}}
_TEXT_END = [{"type": "content_block_stop", "index": 0}]

STREAMS.update(
    {
        "chat_error_frame": (
            "openai-chat",
            [_ROLE, _chunk({"content": "Hel"}), _ERROR_CHUNK, _chunk({"content": "lo"})],
        ),
        "chat_fragment_before_id": (
            "openai-chat",
            [
                _ROLE,
                _chunk(_call(0, function={"arguments": '{"city"'})),
                _chunk(
                    _call(
                        0,
                        id="call_b1",
                        type="function",
                        function={"name": "get_weather", "arguments": ':"Paris"}'},
                    )
                ),
                _chunk({}, "tool_calls"),
                "[DONE]",
            ],
        ),
        "chat_resent_arguments": (
            "openai-chat",
            [
                _ROLE,
                _chunk(_start(0, "call_b1", '{"city":"Paris"}')),
                _chunk(_call(0, id="call_b1", function={"arguments": '{"city":"Paris"}'})),
                _chunk({}, "tool_calls"),
                _CHAT_USAGE,
                "[DONE]",
            ],
        ),
        "chat_cut_arguments": (
            "openai-chat",
            [_ROLE, _chunk(_start(0, "call_b1", '{"city":')), _chunk({}, "length"), "[DONE]"],
        ),
        "chat_done_without_finish": ("openai-chat", [_ROLE, _chunk({"content": "Hi"}), "[DONE]"]),
        "chat_end_after_finish": ("openai-chat", [_ROLE, _chunk({"content": "Hi"}, "stop")]),
        "chat_refusal": (
            "openai-chat",
            [_ROLE, _chunk({"refusal": "No."}), _chunk({}, "stop"), _CHAT_USAGE, "[DONE]"],
        ),
        "message_error": (
            "anthropic-messages",
            [
                _MESSAGE_START,
                *_TEXT_BLOCK,
                {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
                *_TEXT_END,
            ],
        ),
        "message_cut_input": (
            "anthropic-messages",
            [
                _MESSAGE_START,
                _TOOL_BLOCK[0],
                _block(1, "input_json_delta", partial_json='{"city":'),
                {"type": "content_block_stop", "index": 1},
                *_message_end("max_tokens"),
            ],
        ),
        "message_ping_and_server_tool": (
            "anthropic-messages",
            [
                {"type": "ping"},
                _MESSAGE_START,
                {"type": "ping"},
                _started(
                    0,
                    {
                        "type": "server_tool_use",
                        "id": "srvtoolu_1",
                        "name": "web_search",
                        "input": {},
                    },
                ),
                _block(0, "input_json_delta", partial_json='{"query":"x"}'),
                {"type": "content_block_stop", "index": 0},
                _started(
                    1,
                    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
                ),
                {"type": "content_block_stop", "index": 1},
                *_TEXT_BLOCK[1:2],
                {"type": "x_unknown_event", "x": 1},
                *_message_end("end_turn"),
            ],
        ),
    }
)

STREAMS.update(
    {
        "chat_parsable_prefix_then_more": (
            "openai-chat",
            [
                _ROLE,
                _chunk(_start(0, "call_b1", '{"city":"Paris"}')),
                _chunk(_call(0, function={"arguments": ', "unit": "C"}'})),
                _chunk({}, "tool_calls"),
                "[DONE]",
            ],
        ),
        "chat_cut_in_call": (
            "openai-chat",
            [_ROLE, _chunk(_start(0, "call_b1", '{"city":"Paris"}'))],
        ),
        "message_cut_in_call": ("anthropic-messages", [_MESSAGE_START, *_TOOL_BLOCK[:3]]),
    }
)
