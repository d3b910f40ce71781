"""Hand-written cases pinning what the reference adapters' mutants showed untested.

Each test is named after the invariant of events.md it pins: plain frames in, the exact
events, outcome (its error message included, which names the rule) and persisted record
out. Streams go through `run`, which also asserts the invariants every run keeps.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_reference_events_invariants import chunk, fragment, kinds, of, run, tools, turn

from refold.reference.events import (
    Adapter,
    NoTurnError,
    UnknownDialectError,
    fold_turn,
    normalize,
    strip,
)

CHAT = "openai-chat"
ANTHROPIC = "anthropic-messages"
STOP = chunk({}, finish="stop")


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"outcome": "error", "error": {"kind": kind, "message": message}}


def test_an_error_chunk_decides_provider_error_naming_ev_error_frame() -> None:
    # EV-ERROR-FRAME: one Opaque, the outcome error; the message names the rule
    error = {"error": {"message": "overloaded", "type": "server_error"}}
    result = run(CHAT, [chunk({"content": "Hi"}), error, STOP, "[DONE]"])
    assert kinds(result["events"]) == ["TextDelta", "Opaque"]
    assert result["outcome"] == _error(
        "provider_error", "EV-ERROR-FRAME: the provider sent an error chunk"
    )


def test_done_before_choice_zero_finished_is_truncated_naming_ev_truncated() -> None:
    # EV-TRUNCATED: [DONE] without a finish reason of choice 0
    result = run(CHAT, [chunk({"content": "Hi"}), "[DONE]"])
    assert kinds(result["events"]) == ["TextDelta"]
    assert result["outcome"] == _error(
        "truncated", "EV-TRUNCATED: [DONE] arrived before choice 0 finished"
    )


def test_a_call_never_started_at_the_finish_is_unsupported_naming_ev_call_started() -> None:
    # EV-CALL-STARTED: a call with arguments but no id by choice 0's finish
    frames = [tools(fragment(name="f", arguments="{}")), STOP, "[DONE]"]
    result = run(CHAT, frames)
    assert of(result["events"], "ToolCallStarted") == []
    assert result["outcome"] == _error(
        "unsupported",
        "EV-CALL-STARTED: a tool call never got both an id and a name before choice 0 finished",
    )


def test_arguments_not_an_object_at_the_finish_are_invalid_naming_ev_args_invalid() -> None:
    # EV-ARGS-INVALID: no ToolCallCompleted, outcome invalid_tool_arguments
    frames = [
        tools(fragment(call_id="call_1", name="f", arguments='{"a": ')),
        chunk({}, finish="tool_calls"),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert of(result["events"], "ToolCallCompleted") == []
    assert result["outcome"] == _error(
        "invalid_tool_arguments",
        "EV-ARGS-INVALID: a tool call's arguments are not a JSON object at choice 0's finish",
    )


def test_a_fragment_growing_a_completed_call_is_inconsistent_naming_the_rule() -> None:
    # EV-NO-DELTA-AFTER-COMPLETED: the call completed at the finish frame cannot change
    frames = [
        tools(fragment(call_id="call_1", name="f", arguments="{}"), finish="tool_calls"),
        tools(fragment(arguments=" ")),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert kinds(result["events"]) == [
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
        "Opaque",
    ]
    assert result["outcome"] == _error(
        "inconsistent_tool_arguments",
        "EV-NO-DELTA-AFTER-COMPLETED: a tool call changed after choice 0 finished",
    )


def test_two_calls_sharing_an_id_are_unsupported_naming_ev_ids_single_use() -> None:
    # EV-IDS-SINGLE-USE: the second call of the id is never started
    frames = [
        tools(
            fragment(0, call_id="call_1", name="f", arguments="{}"),
            fragment(1, call_id="call_1", name="g", arguments="{}"),
        ),
        chunk({}, finish="tool_calls"),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert [e["name"] for e in of(result["events"], "ToolCallStarted")] == ["f"]
    assert result["outcome"] == _error(
        "unsupported", "EV-IDS-SINGLE-USE: two tool calls of the turn share an id"
    )


def test_a_call_opened_after_the_finish_completes_at_done_after_the_completed_ones() -> None:
    # EV-STARTED-COMPLETED, EV-TURN-CALLS: call 0 completed at the finish frame is
    # skipped at [DONE], and the later call 1 still completes there
    late = tools(fragment(1, call_id="call_2", name="g", arguments='{"b": 2}'))
    frames = [
        tools(fragment(0, call_id="call_1", name="f", arguments='{"a": 1}'), finish="tool_calls"),
        late,
        "[DONE]",
    ]
    result = run(CHAT, frames)
    completed = of(result["events"], "ToolCallCompleted")
    assert [e["call"] for e in completed] == [
        {"id": "call_1", "name": "f", "arguments": {"a": 1}},
        {"id": "call_2", "name": "g", "arguments": {"b": 2}},
    ]
    assert completed[1]["opaque"] == "[DONE]"
    assert [c["id"] for c in turn(result)["tool_calls"]] == ["call_1", "call_2"]
    assert result["outcome"] == {"outcome": "completed"}


def test_non_string_arguments_are_no_fragment_and_never_raise() -> None:
    # EV-UNKNOWN, ROB-WRONG-TYPE: `arguments: 5` appends nothing; the call completes {}
    frames = [
        tools(
            {
                "index": 0,
                "id": "call_1",
                "type": "function",
                "function": {"name": "f", "arguments": 5},
            }
        ),
        chunk({}, finish="tool_calls"),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert of(result["events"], "ToolCallArgumentsDelta") == []
    assert turn(result)["tool_calls"] == [{"id": "call_1", "name": "f", "arguments": {}}]


def test_a_turn_whose_provider_reported_no_model_has_the_empty_model() -> None:
    # EV-TURN-FIELDS: T.model is a string; a stream without `model` gives ""
    frames = [
        {"id": "c1", "choices": [{"index": 0, "delta": {"content": "x"}, "finish_reason": "stop"}]},
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert turn(result)["model"] == ""
    assert turn(result)["response_id"] == "c1"


def test_an_unknown_dialect_is_refused_naming_the_known_ones() -> None:
    # events.md §4: the reference maps exactly its dialects; unhashable names too
    for dialect in ("gemini", ["openai-chat"]):
        with pytest.raises(UnknownDialectError) as raised:
            Adapter(dialect)  # type: ignore[arg-type]
        assert str(raised.value) == (
            f"no reference adapter for dialect {dialect!r}; expected one of "
            "anthropic-messages, gemini-generate-content, openai-chat, openai-responses "
            "(events.md §4)"
        )


def test_the_outcome_is_undecided_before_the_terminal_and_persisted_as_decided() -> None:
    # §5 lifecycle, PERSIST-STRIP: before the terminal no outcome (persisted: null);
    # once decided, the persisted record holds the outcome as a new value
    adapter = Adapter(CHAT)
    adapter.frame(chunk({"content": "Hi"}))
    with pytest.raises(LookupError) as raised:
        adapter.outcome()
    assert str(raised.value) == (
        "the outcome is decided at the stream's terminal frame or "
        "at end(); neither has happened yet"
    )
    assert adapter.persisted()["outcome"] is None
    adapter.frame("[DONE]")
    expected = _error("truncated", "EV-TRUNCATED: [DONE] arrived before choice 0 finished")
    assert adapter.persisted() == {
        "events": [{"type": "TextDelta", "delta": "Hi"}],
        "outcome": expected,
    }
    assert adapter.outcome() == expected
    assert normalize(CHAT, [STOP, "[DONE]"])["persisted"]["outcome"] == {"outcome": "completed"}


def _anthropic_tool(block: dict[str, Any]) -> list[dict[str, Any]]:
    message: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [],
        "stop_reason": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    return [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": block},
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 2},
        },
        {"type": "message_stop"},
    ]


def test_an_empty_string_input_at_the_boundary_completes_with_the_empty_object() -> None:
    # EV-ARGS-EMPTY-OBJECT: `""` (and no input at all) at the block's stop is {}. Not
    # through `run`: the event checker's EV-FOLD-AGREES compares the fold's raw `""` with
    # the parsed {} and reports a disagreement (a checker matter, not the adapter's).
    for block in (
        {"type": "tool_use", "id": "t1", "name": "f", "input": ""},
        {"type": "tool_use", "id": "t1", "name": "f"},
    ):
        result = normalize(ANTHROPIC, _anthropic_tool(block))
        assert turn(result)["tool_calls"] == [{"id": "t1", "name": "f", "arguments": {}}]
        assert result["outcome"] == {"outcome": "completed"}


_TURN: dict[str, Any] = {
    "provider": CHAT,
    "model": "m",
    "response_id": "r",
    "output_text": "",
    "tool_calls": [],
    "stop_reason": "end_turn",
    "opaque": None,
}


def test_the_turn_fold_skips_events_of_the_wrong_shape() -> None:
    # EV-TURN-CALLS, EV-USAGE-LAST, EV-COMPLETED-LAST: only the variant's own field counts
    call = {"id": "call_1", "name": "f", "arguments": {}}
    counted = {
        "input_tokens": 1,
        "output_tokens": 2,
        "cached_input_tokens": None,
        "reasoning_tokens": None,
    }
    events: list[Any] = [
        {"type": "Usage", "usage": counted},
        {"type": "ToolCallCompleted", "call": "call_1"},
        {"type": "Usage", "usage": None},
        {"type": "Completed", "turn": dict(_TURN)},
        {"type": "TextDelta", "delta": "late"},
        # after Completed, so a wrong-type `turn` would replace the header
        {
            "type": "Opaque",
            "event_type": "message",
            "call": call,
            "usage": {"x": 1},
            "turn": {"provider": "elsewhere"},
        },
    ]
    folded = fold_turn(events)
    assert folded == {**_TURN, "output_text": "late", "usage": counted}
    assert strip(folded) == {
        key: value for key, value in folded.items() if key not in ("response_id", "opaque")
    }


def test_events_without_completed_fold_to_no_turn_naming_how_many_were_given() -> None:
    # EV-NO-COMPLETED-ON-ERROR: an error stream's events have no turn
    events = [{"type": "TextDelta", "delta": "a"}, {"type": "TextDelta", "delta": "b"}]
    with pytest.raises(NoTurnError) as raised:
        fold_turn(events)
    assert str(raised.value) == (
        "EV-COMPLETED-LAST: the 2 events given hold no Completed event, so they fold to no "
        "turn (a stream whose outcome is error has none); expected the events of a "
        "completed stream, Completed last"
    )
