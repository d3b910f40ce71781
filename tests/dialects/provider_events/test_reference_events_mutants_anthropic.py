"""Boundaries of the Anthropic events mapping (events.md §4.3) that the rule tests did not
pin down, found by `refold mutate --dialect provider-events` (each test kills surviving
mutants of `refold.reference.anthropic.neutral._mapping`): plain frames in, the exact events and
outcome out.
"""

from __future__ import annotations

from typing import Any

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
from test_reference_events_invariants import kinds, of, run, turn


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"outcome": "error", "error": {"kind": kind, "message": message}}


def _opaque(frame: dict[str, Any]) -> dict[str, Any]:
    return {"type": "Opaque", "event_type": frame["type"], "payload": frame}


def _without_turn(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in event.items() if key != "turn"} for event in events]


def test_usage_without_any_input_bucket_leaves_input_unreported() -> None:
    # EV-USAGE-UNREPORTED, NE-31: input is the sum of the buckets reported, and none is
    # reported here, so input_tokens is null, not 0
    frames = [start({"output_tokens": 3}), message_delta(), MESSAGE_STOP]
    result = run(ANTHROPIC, frames)
    assert of(result["events"], "Usage")[0]["usage"] == {
        "input_tokens": None,
        "output_tokens": 3,
        "cached_input_tokens": None,
        "reasoning_tokens": None,
    }
    assert turn(result)["usage"]["input_tokens"] is None


def test_a_start_for_an_index_that_holds_a_block_is_opaque_and_starts_nothing() -> None:
    # AM-BLOCK-REOPEN (first wins), EV-TEXT-CONSERVE, EV-CALL-STARTED: the fold ignores the
    # later starts, so neither their text nor their tool call is an event
    again_text = block(0, {"type": "text", "text": "B"})
    again_tool = block(0, TOOL)
    frames = [
        start(),
        block(0, {"type": "text", "text": "A"}),
        again_text,
        again_tool,
        text(0, "C"),
        stop(0),
        message_delta(),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert _without_turn(result["events"][1:5]) == [
        {"type": "TextDelta", "delta": "A", "opaque": frames[1]},
        _opaque(again_text),
        _opaque(again_tool),
        {"type": "TextDelta", "delta": "C", "opaque": frames[4]},
    ]
    assert not of(result["events"], "ToolCallStarted")
    assert turn(result)["output_text"] == "AC"
    assert result["outcome"] == {"outcome": "completed"}


def test_an_error_event_ends_the_stream_in_provider_error_naming_its_rule() -> None:
    # EV-ERROR-FRAME: the outcome's message names the rule and quotes no frame
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    result = run(ANTHROPIC, [start(), error, MESSAGE_STOP])
    assert result["outcome"] == _error(
        "provider_error", "EV-ERROR-FRAME: the provider sent an error event"
    )


def test_input_after_the_blocks_stop_fails_naming_its_rule() -> None:
    # EV-NO-DELTA-AFTER-COMPLETED: the late fragment is Opaque and decides the outcome
    late = partial(0, " ")
    frames = [
        start(),
        block(0, TOOL),
        partial(0, "{}"),
        stop(0),
        late,
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert result["events"][-1] == _opaque(late)
    assert result["outcome"] == _error(
        "inconsistent_tool_arguments",
        "EV-NO-DELTA-AFTER-COMPLETED: input arrived after its block stopped",
    )


def test_a_tool_use_block_without_an_id_or_a_name_fails_unsupported_naming_its_rules() -> None:
    # EV-CALL-STARTED: a call that cannot be started cannot complete; nothing follows it
    message = (
        "EV-CALL-STARTED, EV-IDS-SINGLE-USE: a tool_use block without an id and a "
        "name, or with an id already used in the turn"
    )
    for content_block in ({**TOOL, "id": None}, {**TOOL, "name": " "}):
        frames = [
            start(),
            block(0, content_block),
            partial(0, "{}"),
            stop(0),
            message_delta("tool_use"),
            MESSAGE_STOP,
        ]
        result = run(ANTHROPIC, frames)
        assert kinds(result["events"]) == ["Opaque", "Opaque"]
        assert result["events"][1] == _opaque(frames[1])
        assert result["outcome"] == _error("unsupported", message)


def test_input_that_is_no_object_at_the_stop_fails_naming_its_rule() -> None:
    # EV-ARGS-INVALID: the block's joined input parses to an array, not an object
    frames = [
        start(),
        block(0, TOOL),
        partial(0, "[1]"),
        stop(0),
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert result["events"][-1] == _opaque(frames[3])
    assert result["outcome"] == _error(
        "invalid_tool_arguments",
        "EV-ARGS-INVALID: a tool_use block's input is not a JSON object at its content_block_stop",
    )


def test_input_deltas_of_whitespace_alone_fail_naming_the_rule() -> None:
    # EV-ARGS-INVALID against AM-TOOL-NO-DELTA (the module's decision): whitespace alone
    # parses to no object
    frames = [
        start(),
        block(0, TOOL),
        partial(0, " \t"),
        stop(0),
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert result["events"][-1] == _opaque(frames[3])
    assert result["outcome"] == _error(
        "invalid_tool_arguments",
        "EV-ARGS-INVALID: a tool_use block's input deltas are "
        "JSON whitespace alone, which parses to no object",
    )


def test_a_message_start_without_content_holds_no_blocks() -> None:
    # AM-START-CONTENT, AM-ROB-WRONG-TYPE: content absent or not a list is no block
    for content in (None, "text", {"0": {"type": "text", "text": "x"}}):
        first = start()
        if content is None:
            del first["message"]["content"]
        else:
            first["message"]["content"] = content
        frames = [
            first,
            block(0, {"type": "text", "text": ""}),
            text(0, "Hi"),
            stop(0),
            message_delta(),
            MESSAGE_STOP,
        ]
        result = run(ANTHROPIC, frames)
        assert _without_turn(result["events"][:3]) == [
            _opaque(first),
            _opaque(frames[1]),
            {"type": "TextDelta", "delta": "Hi", "opaque": frames[2]},
        ]
        assert turn(result)["output_text"] == "Hi"


def test_every_unstopped_tool_block_completes_at_message_stop_in_index_order() -> None:
    # EV-STARTED-COMPLETED, EV-TURN-CALLS: message_stop completes each call the fold
    # still holds open, not only the last one
    frames = [
        start(),
        block(0, TOOL),
        partial(0, '{"city": "Oslo"}'),
        block(1, {**TOOL, "id": "toolu_2"}),
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    completed = of(result["events"], "ToolCallCompleted")
    assert completed == [
        {
            "type": "ToolCallCompleted",
            "opaque": MESSAGE_STOP,
            "call": {"id": "toolu_1", "name": "get_weather", "arguments": {"city": "Oslo"}},
        },
        {
            "type": "ToolCallCompleted",
            "opaque": MESSAGE_STOP,
            "call": {"id": "toolu_2", "name": "get_weather", "arguments": {}},
        },
    ]
    assert kinds(result["events"])[-2:] == ["Opaque", "Completed"]
    assert [call["id"] for call in turn(result)["tool_calls"]] == ["toolu_1", "toolu_2"]
