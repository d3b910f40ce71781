"""The spec's own examples: its lossless split families, and the documented stream shapes.

Each family of "Lossless split families" turns one known Message into a stream that must
fold back to it under the canonical comparison; the streams are hand-written here (the
Hypothesis strategies draw them at scale in the conformance suites).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from refold.reference.anthropic import Accumulator, differences, fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_family_streams_fold_back_to_the_message": (
        "AM-START-BASE",
        "AM-TEXT-JOIN",
        "AM-TOOL-JOIN",
        "AM-THINK-SIGNATURE",
        "AM-CITATIONS-APPEND",
        "AM-USAGE-REPLACE",
        "AM-PING",
    ),
    "test_family_9_finished_blocks_in_message_start": ("AM-START-CONTENT",),
    "test_the_documented_thinking_stream_without_usage": ("AM-USAGE-ABSENT", "AM-THINK-JOIN"),
}

CITATION = {
    "type": "char_location",
    "cited_text": "grass is green",
    "document_index": 0,
    "document_title": "Facts",
    "start_char_index": 0,
    "end_char_index": 14,
}
MESSAGE: dict[str, Any] = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-x",
    "content": [
        {"type": "thinking", "thinking": "Weather, then search.", "signature": "EqQBCg=="},
        {"type": "redacted_thinking", "data": "EmwKAhgB"},
        {"type": "text", "text": "The grass is green. \u00e9\U0001f600", "citations": [CITATION]},
        {
            "type": "tool_use",
            "id": "toolu_1",
            "name": "get_weather",
            "input": {"location": "San Francisco, CA", "unit": None, "days": [1, 2.5]},
        },
        {
            "type": "server_tool_use",
            "id": "srvtoolu_1",
            "name": "web_search",
            "input": {"query": "weather"},
        },
        {
            "type": "web_search_tool_result",
            "tool_use_id": "srvtoolu_1",
            "content": [{"type": "web_search_result", "url": "https://x.y", "title": "T"}],
        },
        {"type": "tool_use", "id": "toolu_2", "name": "no_args", "input": {}},
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 2679,
        "output_tokens": 510,
        "cache_read_input_tokens": 0,
        "server_tool_use": {"web_search_requests": 1},
    },
}


def _deltas(index: int, kind: str, key: str, pieces: list[str]) -> list[dict[str, Any]]:
    return [
        {"type": "content_block_delta", "index": index, "delta": {"type": kind, key: p}}
        for p in pieces
    ]


def _chars(text: str) -> list[str]:
    return list(text)


def _block_events(index: int, block: dict[str, Any], split: Any) -> list[dict[str, Any]]:
    kind = block["type"]
    opening: dict[str, Any]
    if kind == "text":
        opening, rest = {"type": "text", "text": ""}, block["text"]
        if split is _chars:  # family 2: a prefix of the text on the start event itself
            opening, rest = {"type": "text", "text": rest[:4]}, rest[4:]
        body = _deltas(index, "text_delta", "text", ["", *split(rest)])
        citations = [
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "citations_delta", "citation": c},
            }
            for c in block.get("citations", [])
        ]
        body[1:1] = citations  # family 5: anywhere among the text deltas
    elif kind == "thinking":
        opening = {"type": "thinking", "thinking": ""}
        body = _deltas(index, "thinking_delta", "thinking", split(block["thinking"]))
        body += _deltas(index, "signature_delta", "signature", [block["signature"]])
    elif kind in {"tool_use", "server_tool_use"}:
        opening = {**block, "input": {}}
        spelled = json.dumps(block["input"], indent=1, ensure_ascii=True) if block["input"] else ""
        body = _deltas(index, "input_json_delta", "partial_json", ["", *split(spelled)])
    else:  # family 6: the whole block on content_block_start
        opening, body = block, []
    return [
        {"type": "content_block_start", "index": index, "content_block": opening},
        *body,
        {"type": "content_block_stop", "index": index},
    ]


def stream(message: dict[str, Any], split: Any, *, noise: bool) -> list[dict[str, Any]]:
    """Family 1 (Anthropic's own shape), splitting every text with `split`."""
    envelope = {
        **message,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {**message["usage"], "output_tokens": 1},
    }  # family 7
    events: list[dict[str, Any]] = [{"type": "message_start", "message": envelope}]
    for index, block in enumerate(message["content"]):
        events += _block_events(index, block, split)
    events += [
        {"type": "message_delta", "delta": {"stop_reason": None}, "usage": {}},  # family 7
        {
            "type": "message_delta",
            "delta": {
                "stop_reason": message["stop_reason"],
                "stop_sequence": message["stop_sequence"],
            },
            "usage": {"output_tokens": message["usage"]["output_tokens"]},
        },
        {"type": "message_stop"},
    ]
    if noise:  # family 8: pings, unknown events, envelope keys, events after message_stop
        events = [{"type": "ping"}, *[e for event in events for e in (event, {"type": "ping"})]]
        events[-2] = {"type": "message_stop", "amazon-bedrock-invocationMetrics": {"n": 1}}
        events += [
            {"type": "vertex_event", "usage": {"input_tokens": 1}},
            {
                "type": "content_block_delta",
                "index": 2,
                "delta": {"type": "text_delta", "text": "late"},
            },
        ]
    return events


@pytest.mark.parametrize("split", [lambda s: [s], _chars, lambda s: [s[:3], "", s[3:], ""]])
@pytest.mark.parametrize("noise", [False, True])
def test_family_streams_fold_back_to_the_message(split: Any, noise: bool) -> None:
    events = stream(MESSAGE, split, noise=noise)
    sent = copy.deepcopy(events)
    accumulator = Accumulator()
    for event in events:
        accumulator.add(event)
    assert differences(MESSAGE, accumulator.response()) == []
    assert accumulator.finished and accumulator.error is None
    assert events == sent


def test_family_9_finished_blocks_in_message_start() -> None:
    message = {
        **MESSAGE,
        "content": [
            {
                "type": "tool_use",
                "id": "toolu_3",
                "name": "calc",
                "input": {"x": 1},
                "caller": {"type": "code_execution_20250825", "tool_id": "srvtoolu_2"},
            }
        ],
    }
    assert (
        differences(
            message, fold([{"type": "message_start", "message": message}, {"type": "message_stop"}])
        )
        == []
    )


def test_the_documented_thinking_stream_without_usage() -> None:
    events = [
        {
            "type": "message_start",
            "message": {
                "id": "msg_01",
                "type": "message",
                "role": "assistant",
                "content": [],
                "model": "claude-x",
                "stop_reason": None,
                "stop_sequence": None,
            },
        },
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": ""},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "I need to find the GCD..."},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "signature_delta", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3h"},
        },
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "text_delta", "text": "The greatest common divisor is 21."},
        },
        {"type": "content_block_stop", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}},
        {"type": "message_stop"},
    ]
    assert fold(events) == {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [
            {
                "type": "thinking",
                "thinking": "I need to find the GCD...",
                "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3h",
            },
            {"type": "text", "text": "The greatest common divisor is 21."},
        ],
        "stop_reason": "end_turn",
        "stop_sequence": None,
    }
