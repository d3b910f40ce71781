"""§4.1 and §4.3 mapping rows the per-dialect modules leave implicit, one case per row,
exact event lists and the frame each arrives at, so a damaged mapping cannot pass.

Every run also goes through the invariants and the event checker (`run`).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_reference_events_anthropic import (
    ANTHROPIC,
    MESSAGE_STOP,
    TOOL,
    block,
    message_delta,
    partial,
    start,
    stop,
    text,
)
from test_reference_events_invariants import (
    chunk,
    error_kind,
    fragment,
    kinds,
    of,
    run,
    stepwise,
    tools,
    turn,
)

CHAT = "openai-chat"


def _opaque(frame: Any, name: str = "message") -> dict[str, Any]:
    return {"type": "Opaque", "event_type": name, "payload": frame}


# §4.1 OpenAI Chat Completions


def test_chat_done_completed_arrives_at_done_after_the_usage_chunk() -> None:
    # EV-CHAT-DONE: finish chunk, usage chunk (choices: []), then [DONE]
    usage = {
        "id": "chatcmpl-ev",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4o-mini",
        "choices": [],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
    }
    frames = [chunk({"content": "a"}), chunk({}, finish="stop"), usage, "[DONE]"]
    steps = stepwise(CHAT, frames)
    assert [kinds(step) for step in steps] == [
        ["TextDelta"],
        ["Opaque"],
        ["Usage"],
        ["Completed"],
        [],
    ]
    assert turn(run(CHAT, frames))["usage"] == {
        "input_tokens": 3,
        "output_tokens": 2,
        "cached_input_tokens": None,
        "reasoning_tokens": None,
    }


def test_chat_done_before_the_finish_reason_is_truncated() -> None:
    # EV-TRUNCATED: [DONE] is no finish reason; the chunks after it are not normalised
    frames = [chunk({"content": "a"}), "[DONE]", chunk({}, finish="stop")]
    result = run(CHAT, frames)
    assert error_kind(result) == "truncated"
    assert kinds(result["events"]) == ["TextDelta"]


@pytest.mark.parametrize("finish", ["", " ", "error"])
def test_chat_a_blank_or_error_finish_reason_completes_no_call(finish: str) -> None:
    # §4.1 "finish_reason non-blank (not error)": the call stays open, the stream truncated
    frames = [tools(fragment(call_id="call_1", name="f", arguments="{}"), finish=finish)]
    result = run(CHAT, frames)
    assert not of(result["events"], "ToolCallCompleted")
    assert error_kind(result) == "truncated"


def test_chat_finish_completes_every_open_call_in_the_folds_order_at_that_frame() -> None:
    # §4.1 finish row: ToolCallCompleted for every open call, arguments parsed, "" -> {}
    finish = chunk({}, finish="tool_calls")
    frames = [
        tools(
            fragment(1, call_id="call_b", name="g", arguments='{"x": [1]}'),
            fragment(0, call_id="call_a", name="f", arguments=""),
        ),
        finish,
    ]
    steps = stepwise(CHAT, frames)
    assert steps[1] == [
        {
            "type": "ToolCallCompleted",
            "call": {"id": "call_a", "name": "f", "arguments": {}},
            "opaque": finish,
        },
        {
            "type": "ToolCallCompleted",
            "call": {"id": "call_b", "name": "g", "arguments": {"x": [1]}},
            "opaque": finish,
        },
    ]
    assert kinds(steps[2]) == ["Completed"]


def test_chat_fields_of_one_chunk_in_table_order() -> None:
    # EV-FRAME-ORDER: content, then tool fragments, then the finish, then usage
    busy = chunk(
        {"content": "a", "tool_calls": [fragment(call_id="c", name="f", arguments="{}")]},
        finish="tool_calls",
        usage={"prompt_tokens": 1, "completion_tokens": 1},
    )
    assert kinds(stepwise(CHAT, [busy])[0]) == [
        "TextDelta",
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
        "Usage",
    ]


def test_chat_usage_details_map_to_cached_and_reasoning() -> None:
    # §4.1 usage mapping: the two detail counters
    reported = {
        "prompt_tokens": 10,
        "completion_tokens": 4,
        "prompt_tokens_details": {"cached_tokens": 6},
        "completion_tokens_details": {"reasoning_tokens": 3},
    }
    frames = [chunk({"content": "a"}, finish="stop", usage=reported), "[DONE]"]
    assert of(run(CHAT, frames)["events"], "Usage")[0]["usage"] == {
        "input_tokens": 10,
        "output_tokens": 4,
        "cached_input_tokens": 6,
        "reasoning_tokens": 3,
    }


# §4.3 Anthropic Messages


def test_anthropic_an_empty_partial_json_is_opaque() -> None:
    # §4.3: input_json_delta with an empty partial_json is Opaque (EV-NO-EMPTY-DELTA)
    empty = partial(0, "")
    frames = [
        start(),
        block(0, TOOL),
        empty,
        partial(0, '{"a": 1}'),
        stop(0),
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    steps = stepwise(ANTHROPIC, frames)
    assert steps[2] == [_opaque(empty, "content_block_delta")]
    assert [e["delta"] for e in of(run(ANTHROPIC, frames)["events"], "ToolCallArgumentsDelta")] == [
        '{"a": 1}'
    ]


def test_anthropic_message_delta_without_usage_is_opaque_with_usage_one_usage() -> None:
    # §4.3 message_delta row: Usage if it has usage, else Opaque
    bare = message_delta("end_turn")
    counted = message_delta("end_turn", output_tokens=7)
    steps = stepwise(ANTHROPIC, [start(), bare, counted, MESSAGE_STOP])
    assert steps[1] == [_opaque(bare, "message_delta")]
    assert kinds(steps[2]) == ["Usage"] and steps[2][0]["opaque"] == counted
    assert steps[2][0]["usage"]["output_tokens"] == 7


def test_anthropic_message_stop_is_where_completed_arrives() -> None:
    # §4.3 message_stop row: Completed (after its Opaque), nothing at end()
    frames = [
        start(),
        block(0, {"type": "text", "text": ""}),
        text(0, "Hi"),
        stop(0),
        message_delta(),
        MESSAGE_STOP,
    ]
    steps = stepwise(ANTHROPIC, frames)
    assert kinds(steps[5]) == ["Opaque", "Completed"] and steps[6] == []
    assert [kinds(step) for step in steps[1:5]] == [
        ["Opaque"],
        ["TextDelta"],
        ["Opaque"],
        ["Opaque"],
    ]


def test_anthropic_a_tool_use_start_is_started_at_its_own_frame_only() -> None:
    # §4.3 content_block_start tool_use row: ToolCallStarted {id, name}, nothing else
    opened = block(0, TOOL)
    steps = stepwise(ANTHROPIC, [start(), opened, stop(0), message_delta("tool_use"), MESSAGE_STOP])
    assert steps[1] == [
        {"type": "ToolCallStarted", "id": "toolu_1", "name": "get_weather", "opaque": opened}
    ]
    assert steps[2] == [
        {
            "type": "ToolCallCompleted",
            "call": {"id": "toolu_1", "name": "get_weather", "arguments": {}},
            "opaque": stop(0),
        }
    ]


def test_anthropic_a_text_block_start_without_text_is_opaque() -> None:
    # §4.3 content_block_start of other types: Opaque; with non-empty text: TextDelta
    empty, full = block(0, {"type": "text", "text": ""}), block(1, {"type": "text", "text": "x"})
    steps = stepwise(
        ANTHROPIC, [start(), empty, stop(0), full, stop(1), message_delta(), MESSAGE_STOP]
    )
    assert steps[1] == [_opaque(empty, "content_block_start")]
    assert steps[3] == [{"type": "TextDelta", "delta": "x", "opaque": full}]
