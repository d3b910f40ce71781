"""Where events.md's rules conflict, the decisions taken, each pinned on both halves of
refold.reference.events: what the reference adapter emits, and what the checker accepts
(it must not demand more than the spec says) and still catches.

Each decision is written once, in the module docstring where it is applied (`_chat`,
`_anthropic`, `_check_calls`, `_ends`, `_persistence`, `_context`).
"""

from __future__ import annotations

import copy
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
    emitted_run,
    error_kind,
    fragment,
    kinds,
    of,
    run,
    tools,
    turn,
)

from refold.reference.events import UNCHECKED, Violation, check_events, fold_turn, unchecked

CHAT = "openai-chat"
STOP = chunk({}, finish="stop")


def _rules(found: list[Violation]) -> set[str]:
    return {violation.rule for violation in found}


def _checked(dialect: str, frames: list[Any]) -> list[Violation]:
    """The checker on the reference's own run of `frames`, frame by frame."""
    events, at, outcome, persisted = emitted_run(dialect, frames)
    found: list[Violation] = check_events(dialect, frames, events, outcome, persisted, emitted=at)
    return found


# EV-TURN-CALLS vs EV-FOLD-AGREES / EV-DETERMINISM (chat-fold split family 5)

_LATE_ID = [
    tools(fragment(0, name="first", arguments="{}")),  # index 0: no id yet
    tools(fragment(1, call_id="call_b", name="second", arguments="{}")),
    tools(fragment(0, call_id="call_a")),
    chunk({}, finish="tool_calls"),
    "[DONE]",
]


def test_turn_calls_have_the_fold_order_when_an_id_arrives_late() -> None:
    result = run(CHAT, _LATE_ID)  # the checker finds nothing wrong (run checks it)
    starts = [e["id"] for e in of(result["events"], "ToolCallStarted")]
    assert starts == ["call_b", "call_a"]
    assert [c["id"] for c in turn(result)["tool_calls"]] == ["call_a", "call_b"]


def test_turn_calls_accept_start_order_leaving_the_order_to_fold_agrees() -> None:
    result = run(CHAT, _LATE_ID)
    events = copy.deepcopy(result["events"])
    calls = events[-1]["turn"]["tool_calls"]
    calls.reverse()  # start order, the literal reading of EV-TURN-CALLS
    found = check_events(CHAT, _LATE_ID, events, result["outcome"])
    assert _rules(found) == {"EV-FOLD-AGREES"}  # charged once, not twice


def test_turn_calls_still_catch_a_call_missing_from_the_turn() -> None:
    result = run(CHAT, _LATE_ID)
    events = copy.deepcopy(result["events"])
    del events[-1]["turn"]["tool_calls"][0]
    assert "EV-TURN-CALLS" in _rules(check_events(CHAT, _LATE_ID, events, result["outcome"]))


# EV-USAGE-MONOTONE vs AM-USAGE-REPLACE (Anthropic split family 7)

_FALLING = [
    start({"input_tokens": 5, "output_tokens": 4}),
    block(0, {"type": "text", "text": ""}),
    text(0, "Hi"),
    stop(0),
    message_delta(output_tokens=1),
    MESSAGE_STOP,
]


def test_usage_monotone_a_fall_the_frames_make_is_not_the_adapters() -> None:
    result = run(ANTHROPIC, _FALLING)  # passed through as reported: no violation
    counts = [e["usage"]["output_tokens"] for e in of(result["events"], "Usage")]
    assert counts == [4, 1]


def test_usage_monotone_a_fall_the_frames_do_not_make_is_a_violation() -> None:
    frames = [*_FALLING[:4], message_delta(output_tokens=9), MESSAGE_STOP]
    result = run(ANTHROPIC, frames)
    events = copy.deepcopy(result["events"])
    usage = of(events, "Usage")[-1]["usage"]
    usage["output_tokens"] = events[-1]["turn"]["usage"]["output_tokens"] = 2
    found = check_events(ANTHROPIC, frames, events, result["outcome"])
    assert [(v.rule, v.event) for v in found if v.rule == "EV-USAGE-MONOTONE"] == [
        ("EV-USAGE-MONOTONE", events.index(of(events, "Usage")[-1]))
    ]


def test_usage_monotone_after_a_fall_the_frames_made_the_lower_count_is_the_baseline() -> None:
    frames = [*_FALLING[:5], message_delta(output_tokens="x"), MESSAGE_STOP]
    assert _checked(ANTHROPIC, frames) == []  # 4, 1, 1: the second 1 is no new fall


# EV-TRUNCATED / EV-STARTED-COMPLETED vs a Chat call opened after the last finish reason


@pytest.mark.parametrize("done", [True, False])
def test_truncated_is_not_met_by_a_call_opened_after_the_finish(done: bool) -> None:
    frames = [
        STOP,
        tools(fragment(call_id="call_1", name="f", arguments="{}")),
        *(["[DONE]"] if done else []),
    ]
    result = run(CHAT, frames)
    assert result["outcome"] == {"outcome": "completed"}
    reference = copy.deepcopy(result)
    truncated = {"outcome": "error", "error": {"kind": "truncated", "message": "cut"}}
    events = [e for e in reference["events"] if e["type"] != "Completed"]
    found = check_events(CHAT, frames, events, truncated)
    assert "EV-TRUNCATED" in _rules(found)


def test_chat_complete_at_finish_the_end_is_a_boundary_only_after_the_last_finish() -> None:
    # a call open at a finish frame completing at [DONE] instead is late
    frames = [tools(fragment(call_id="call_1", name="f", arguments="{}")), STOP, "[DONE]"]
    events, _, outcome, _ = emitted_run(CHAT, frames)
    finish = {"type": "Opaque", "event_type": "message", "payload": frames[1]}
    moved = [finish if e["type"] == "ToolCallCompleted" else e for e in events]
    completed = dict(of(events, "ToolCallCompleted")[0], opaque="[DONE]")
    moved.insert(len(moved) - 1, completed)
    found = check_events(CHAT, frames, moved, outcome)
    assert _rules(found) == {"EV-CHAT-COMPLETE-AT-FINISH"}


# EV-FRAME-COVER / EV-FRAME-ORDER vs EV-ARGS-BUFFER: a held fragment's frame


def test_frame_cover_a_held_fragment_whose_call_never_starts_left_its_opaque() -> None:
    error = chunk({}, error={"message": "boom"})
    frames = [tools(fragment(name="f", arguments='{"a":')), error]
    events, at, outcome, persisted = emitted_run(CHAT, frames)
    assert kinds(events) == ["Opaque", "Opaque"] and at == [0, 1]
    assert check_events(CHAT, frames, events, outcome, persisted, emitted=at) == []


# EV-FRAME-ORDER with `emitted`: look-ahead


def _text_frames() -> list[Any]:
    return [chunk({"content": "Hel"}), chunk({"content": "lo"}), STOP, "[DONE]"]


def test_frame_order_emitted_an_event_held_back_one_frame_is_look_ahead() -> None:
    frames = _text_frames()
    events, at, outcome, _ = emitted_run(CHAT, frames)
    assert _checked(CHAT, frames) == []
    late = [at[0] + 1, *at[1:]]  # "Hel" arrives while frame 1 is read
    found = check_events(CHAT, frames, events, outcome, emitted=late)
    assert [(v.rule, v.event, v.frame) for v in found] == [("EV-FRAME-ORDER", 0, 0)]
    assert check_events(CHAT, frames, events, outcome) == []  # invisible without emitted


def test_frame_order_emitted_released_deltas_and_the_last_frame_at_end_are_no_look_ahead() -> None:
    held = [
        tools(fragment(name="f", arguments='{"a":')),
        tools(fragment(call_id="call_1", arguments="1}")),
        STOP,
    ]
    events, at, outcome, _ = emitted_run(CHAT, held)
    assert check_events(CHAT, held, events, outcome, emitted=at) == []
    late = [STOP, tools(fragment(call_id="call_1", name="f", arguments="{}"))]
    events, at, outcome, _ = emitted_run(CHAT, late)
    assert at[-2:] == [2, 2]  # ToolCallCompleted (the last chunk) and Completed at end()
    assert check_events(CHAT, late, events, outcome, emitted=at) == []


def test_frame_order_emitted_an_opaque_of_a_frame_not_sent_yet() -> None:
    frames = _text_frames()
    events, at, outcome, _ = emitted_run(CHAT, frames)
    early = [0, 0, *at[2:]]  # "lo" before its frame was sent
    found = check_events(CHAT, frames, events, outcome, emitted=early)
    assert [(v.rule, v.event) for v in found] == [("EV-FRAME-ORDER", 1)]


# EV-CHAT-DONE, EV-CHAT-EOF: checkable with `emitted`


def test_chat_done_completed_must_arrive_at_the_done_frame() -> None:
    frames = _text_frames()
    events, at, outcome, _ = emitted_run(CHAT, frames)
    assert at[-1] == 3
    found = check_events(CHAT, frames, events, outcome, emitted=[*at[:-1], 4])
    assert [(v.rule, v.event, v.frame) for v in found] == [("EV-CHAT-DONE", 3, 3)]


def test_chat_eof_completed_must_arrive_at_end_of_the_body() -> None:
    frames = _text_frames()[:-1]
    events, at, outcome, _ = emitted_run(CHAT, frames)
    assert at[-1] == len(frames)
    found = check_events(CHAT, frames, events, outcome, emitted=[*at[:-1], 2])
    assert [(v.rule, v.event) for v in found] == [("EV-CHAT-EOF", 3)]


def test_chat_done_and_eof_are_unchecked_only_without_emitted() -> None:
    assert {"EV-CHAT-DONE", "EV-CHAT-EOF"} <= set(UNCHECKED) == set(unchecked())
    assert not {"EV-CHAT-DONE", "EV-CHAT-EOF"} & set(unchecked(emitted=True))


@pytest.mark.parametrize("emitted", [[0], [0, 0, 0, 3, 9], [1, 0, 2, 3], [0, 0, True, 3]])
def test_emitted_that_does_not_fit_the_events_is_the_callers_mistake(emitted: list[Any]) -> None:
    frames = _text_frames()
    events, _, outcome, _ = emitted_run(CHAT, frames)
    with pytest.raises(ValueError, match="emitted"):
        check_events(CHAT, frames, events, outcome, emitted=emitted)


# EV-NO-DELTA-AFTER-COMPLETED, EV-IDS-SINGLE-USE, EV-CALL-STARTED: frames that end in error


def test_no_delta_after_completed_frames_growing_a_completed_call_end_inconsistent() -> None:
    frames = [
        tools(fragment(call_id="call_1", name="f", arguments="{}"), finish="tool_calls"),
        tools(fragment(arguments=" ")),
        "[DONE]",
    ]
    assert error_kind(run(CHAT, frames)) == "inconsistent_tool_arguments"
    good = [frames[0], "[DONE]"]
    result = run(CHAT, good)
    grown = {"type": "Opaque", "event_type": "message", "payload": frames[1]}
    events = [*result["events"][:-1], grown, result["events"][-1]]
    found = check_events(CHAT, frames, events, result["outcome"])
    assert "EV-NO-DELTA-AFTER-COMPLETED" in _rules(found)


@pytest.mark.parametrize("dialect", [CHAT, ANTHROPIC])
def test_ids_single_use_two_calls_with_one_id_end_unsupported(dialect: str) -> None:
    if dialect == CHAT:
        frames: list[Any] = [
            tools(
                fragment(0, call_id="call_1", name="f", arguments="{}"),
                fragment(1, call_id="call_1", name="f", arguments="{}"),
            ),
            STOP,
            "[DONE]",
        ]
    else:
        frames = [
            start(),
            block(0, TOOL),
            stop(0),
            block(1, TOOL),
            stop(1),
            message_delta("tool_use"),
            MESSAGE_STOP,
        ]
    result = run(dialect, frames)
    assert error_kind(result) == "unsupported"
    found = check_events(
        dialect, frames, [], {"outcome": "error", "error": {"kind": "truncated", "message": "x"}}
    )
    assert "EV-IDS-SINGLE-USE" in _rules(found)


# EV-FOLD-AGREES: Anthropic blocks out of index order agree in arrival order


def test_fold_agrees_text_and_calls_in_the_order_they_arrived() -> None:
    other = {**TOOL, "id": "toolu_2", "name": "other"}
    frames = [
        start(),
        block(1, {"type": "text", "text": "b"}),
        stop(1),
        block(0, {"type": "text", "text": "a"}),
        stop(0),
        block(3, other),
        partial(3, "{}"),
        stop(3),
        block(2, TOOL),
        stop(2),
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert turn(result)["output_text"] == "ba"
    assert [c["id"] for c in turn(result)["tool_calls"]] == ["toolu_2", "toolu_1"]
    events = copy.deepcopy(result["events"])
    events[-1]["turn"]["tool_calls"].reverse()
    assert "EV-FOLD-AGREES" in _rules(check_events(ANTHROPIC, frames, events, result["outcome"]))


# PERSIST-STRIP vs PERSIST-PORTABLE: a call's arguments are data


def test_persist_strip_keeps_an_argument_named_payload() -> None:
    arguments = '{"payload": {"opaque": 1}}'
    frames = [
        tools(fragment(call_id="call_1", name="f", arguments=arguments)),
        chunk({}, finish="tool_calls"),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert turn(result)["tool_calls"][0]["arguments"] == {"payload": {"opaque": 1}}
    persisted = result["persisted"]
    assert (
        check_events(CHAT, frames, result["events"], result["outcome"], persisted, fold=fold_turn)
        == []
    )
    leaked = copy.deepcopy(persisted)
    leaked["events"][0]["opaque"] = frames[0]
    found = check_events(CHAT, frames, result["events"], result["outcome"], leaked)
    assert "PERSIST-STRIP" in _rules(found)


def test_an_anthropic_tool_use_started_with_empty_input_text_agrees_with_the_fold() -> None:
    # EV-ARGS-EMPTY-OBJECT: "" at the completion boundary completes as {}; the Anthropic fold
    # keeps the start's "" standing (AM-TOOL-NO-DELTA), which the view reads as {} too.
    from refold.reference.events import check_events, normalize

    frames = [
        {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "m",
                "content": [],
                "usage": {"input_tokens": 1},
            },
        },
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": ""},
        },
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 2},
        },
        {"type": "message_stop"},
    ]
    result = normalize("anthropic-messages", frames)
    assert result["outcome"] == {"outcome": "completed"}
    assert (
        check_events(
            "anthropic-messages", frames, result["events"], result["outcome"], result["persisted"]
        )
        == []
    )
