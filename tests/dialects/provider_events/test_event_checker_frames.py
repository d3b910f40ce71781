"""The event checker on the rules that read the frames: opaque, cover, order, outcome, turn.

Frames are numbered from 0 as given; the frame an event came from is inferred by matching
its opaque (see `refold.reference.events.checker._context`): events come from frames in
non-decreasing order, except the deltas released right after their ToolCallStarted.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from _event_streams import (
    DIALECTS,
    NULL_USAGE,
    PROVIDER,
    Case,
    case,
    completed_call,
    delta,
    errored_case,
    opaque,
    started,
    text,
    turn,
)

from refold.reference.events import Violation, check_events


def check(c: Case, **options: Any) -> list[Violation]:
    return check_events(c.dialect, c.frames, c.events, c.outcome, **options)


def only(found: list[Violation], rule: str) -> list[Violation]:
    assert found, f"expected a {rule} violation, found none"
    assert {v.rule for v in found} == {rule}, [str(v) for v in found]
    return found


def _error(kind: str) -> dict[str, Any]:
    return {"outcome": "error", "error": {"kind": kind, "message": "m"}}


def _name(dialect: str, frame: Any) -> str:
    return "message" if dialect == "openai-chat" else frame["type"]


each_dialect = pytest.mark.parametrize("dialect", DIALECTS)


@each_dialect
def test_opaque_frame_an_opaque_equal_to_no_frame(dialect: str) -> None:
    c = case(dialect)
    stray = {"type": "ping", "note": "not a frame of this stream"}
    c.events.insert(c.at["text1"], opaque(stray, _name(dialect, stray)))
    [v] = only(check(c), "EV-OPAQUE-FRAME")
    assert (v.event, v.pointer) == (c.at["text1"], "/payload")


@each_dialect
def test_opaque_frame_a_fragment_is_not_the_frame(dialect: str) -> None:
    # The frame the fragment came from is then carried by no event: EV-FRAME-COVER too.
    c = case(dialect)
    t = c.at["text1"]
    c.events[t]["opaque"] = {"content": "Hel"}
    found = check(c)
    assert [(v.rule, v.event, v.frame) for v in found] == [
        ("EV-OPAQUE-FRAME", t, None),
        ("EV-FRAME-COVER", None, t),
    ]


@each_dialect
def test_frame_cover_a_frame_no_event_carries(dialect: str) -> None:
    c = case(dialect)
    del c.events[c.at["first"]]
    [v] = only(check(c), "EV-FRAME-COVER")
    assert (v.frame, v.event) == (c.at["first"], None)


@each_dialect
def test_frame_cover_counts_equal_frames_as_one(dialect: str) -> None:
    # Events say only which frame value they carry: of two JSON-equal frames, one event
    # covers both (the one that produced two events cannot be told from two frames).
    c = case(dialect)
    t = c.at["text2"]
    c.frames.insert(t + 1, copy.deepcopy(c.frames[t]))
    c.events.insert(t + 1, text("lo", c.frames[t]))
    for name in ("output_text",):
        c.turn[name] = "Hellolo"
    c.turn["opaque"] = turn(dialect, c.frames)["opaque"]
    assert check(c, turn_opaque=True) == []
    del c.events[t + 1]
    c.turn["output_text"] = "Hello"
    assert {v.rule for v in check(c)} == {"EV-FOLD-AGREES"}  # the text lost, not a frame


@each_dialect
def test_frame_order_an_event_of_an_earlier_frame_after_a_later_one(dialect: str) -> None:
    c = case(dialect)
    c.events[0], c.events[1] = c.events[1], c.events[0]
    [v] = only(check(c), "EV-FRAME-ORDER")
    assert (v.event, v.frame) == (1, 0)


def test_frame_order_deltas_buffered_until_the_id_is_known_may_follow_it() -> None:
    c = case("openai-chat")
    f = c.frames
    # chat-fold split family 5: the first fragment arrives before the call's id and name
    f[3], f[4] = (
        {
            **f[4],
            "choices": [
                {
                    "index": 0,
                    "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '{"city"'}}]},
                }
            ],
        },
        {
            **f[3],
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "call_w1",
                                "type": "function",
                                "function": {"name": "get_weather"},
                            }
                        ]
                    },
                }
            ],
        },
    )
    c.events[3:6] = [
        started("call_w1", f[4]),
        delta("call_w1", '{"city"', f[3]),
        delta("call_w1", ':"Paris"}', f[5]),
    ]
    c.turn["opaque"] = turn("openai-chat", f)["opaque"]
    assert check(c, turn_opaque=True) == []
    # a delta that does not follow its start directly may not go back to an earlier frame
    c.events.insert(4, opaque(f[4]))
    [v] = only(check(c), "EV-FRAME-ORDER")
    assert (v.event, v.frame) == (5, 3)


@each_dialect
def test_opaque_type(dialect: str) -> None:
    c = case(dialect)
    first = c.at["first"]
    c.events[first]["event_type"] = "content_block_stop" if dialect != "openai-chat" else "chunk"
    [v] = only(check(c), "EV-OPAQUE-TYPE")
    assert (v.event, v.pointer) == (first, "/event_type")


def test_opaque_type_of_a_chat_frame_is_message_even_with_a_type_key() -> None:
    c = case("openai-chat")
    c.events[0]["event_type"] = "chat.completion.chunk"
    only(check(c), "EV-OPAQUE-TYPE")


@each_dialect
def test_truncated_frames_without_a_terminal_end_in_truncated(dialect: str) -> None:
    c = case(dialect)
    cut = c.at["text2"] + 1
    c.frames, c.events, c.outcome = c.frames[:cut], c.events[:cut], _error("truncated")
    assert check(c) == []
    c.outcome = _error("provider_error")
    [v] = only(check(c), "EV-TRUNCATED")
    assert v.frame is None and "truncated" in v.message


def test_truncated_a_done_before_the_finish_reason() -> None:
    c = case("openai-chat")
    c.frames = [*c.frames[:3], "[DONE]"]
    c.events = c.events[:3]
    c.outcome = _error("truncated")
    assert check(c) == []
    c.outcome = "completed"
    c.events.append(
        {
            "type": "Completed",
            "turn": turn(
                "openai-chat", c.frames, tool_calls=[], stop_reason="other", usage=NULL_USAGE
            ),
        }
    )
    [v] = only(check(c), "EV-TRUNCATED")
    assert v.frame == 3


@each_dialect
def test_truncated_charged_for_a_complete_stream_called_truncated(dialect: str) -> None:
    c = case(dialect)
    c.events.pop()
    c.outcome = _error("truncated")
    only(check(c), "EV-TRUNCATED")


def test_chat_eof_after_the_finish_reason_is_complete() -> None:
    c = case("openai-chat")
    c.frames.pop()  # no [DONE]: the body ended after the usage chunk
    assert check(c) == []


@each_dialect
def test_error_frame_outcome(dialect: str) -> None:
    c = errored_case(dialect)
    c.outcome = _error("truncated")
    [v] = only(check(c), "EV-ERROR-FRAME")
    assert v.frame == c.at["error"]


@each_dialect
def test_error_frame_produces_exactly_one_opaque(dialect: str) -> None:
    c = errored_case(dialect)
    c.events.append(copy.deepcopy(c.events[-1]))
    [v] = only(check(c), "EV-ERROR-FRAME")
    assert (v.frame, v.event) == (c.at["error"], c.at["error"])


@each_dialect
def test_nothing_after_error(dialect: str) -> None:
    c = errored_case(dialect, after="text1")
    later = case(dialect).frames[c.at["text2"]]
    c.frames.append(later)
    assert check(c) == []  # a frame after the error frame need not be normalised
    c.events.append(text("lo", later))
    [v] = only(check(c), "EV-NOTHING-AFTER-ERROR")
    assert (v.event, v.frame) == (len(c.events) - 1, len(c.frames) - 1)


@each_dialect
def test_args_invalid_cut_arguments_end_in_invalid_tool_arguments(dialect: str) -> None:
    c = case(dialect, last=':"Par')
    done = c.at["call_done"]
    c.events = c.events[:done]
    c.events[c.at["delta2"]]["delta"] = ':"Par'
    c.frames = c.frames[: done + 1]
    c.outcome = _error("invalid_tool_arguments")
    assert check(c) == []
    c.outcome = _error("truncated")
    [v] = only(check(c), "EV-ARGS-INVALID")
    assert v.frame == done
    c.outcome = _error("invalid_tool_arguments")
    c.events.append(completed_call(c.events[c.at["started"]]["id"], c.frames[done], {}))
    assert ("EV-ARGS-INVALID", done) in [(v.rule, v.event) for v in check(c)]


@each_dialect
def test_args_invalid_charged_for_valid_arguments_called_invalid(dialect: str) -> None:
    c = case(dialect)
    c.events.pop()
    c.outcome = _error("invalid_tool_arguments")
    only(check(c), "EV-ARGS-INVALID")


def test_choice0_unsupported_only_for_several_choices() -> None:
    c = case("openai-chat")
    c.events.pop()
    c.outcome = _error("unsupported")
    only(check(c), "EV-CHOICE0")
    c.frames[1] = {
        **c.frames[1],
        "choices": [*c.frames[1]["choices"], {"index": 1, "delta": {"content": "x"}}],
    }
    c.events[1]["opaque"] = c.frames[1]
    assert check(c) == []


def test_chat_complete_at_finish() -> None:
    c = case("openai-chat")
    done = c.at["call_done"]
    c.events[done]["opaque"] = c.frames[done - 1]
    c.events.insert(done + 1, opaque(c.frames[done]))
    [v] = only(check(c), "EV-CHAT-COMPLETE-AT-FINISH")
    assert (v.event, v.frame) == (done, done - 1)


def test_a_chat_call_may_complete_at_a_later_finish_frame_than_a_noise_one() -> None:
    # finish_reason is last-wins (chat-fold CHOICE-FINISH), so an earlier one is family 8
    # noise: a frame-by-frame adapter completes the call at the finish it can see
    from refold.reference.events import check_events, normalize

    noise = {
        "id": "c1",
        "model": "m",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}],
    }
    call = {
        "id": "c1",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "delta": {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ]
                },
            }
        ],
    }
    frames = [noise, call, "[DONE]"]
    result = normalize("openai-chat", frames)
    completed = [e for e in result["events"] if e["type"] == "ToolCallCompleted"]
    assert [e["opaque"] for e in completed] == [call]
    assert check_events("openai-chat", frames, result["events"], result["outcome"]) == []


@each_dialect
def test_turn_fields(dialect: str) -> None:
    c = case(dialect)
    assert check(c, provider="another") != []
    c.turn["model"] = "another-model"
    c.turn["response_id"] = "resp_other"
    found = only(check(c, provider=PROVIDER), "EV-TURN-FIELDS")
    assert [v.pointer for v in found] == ["/turn/model", "/turn/response_id"]
    assert {v.event for v in found} == {c.at["completed"]}


@each_dialect
def test_turn_opaque_is_checked_only_when_claimed(dialect: str) -> None:
    c = case(dialect)
    c.turn["opaque"]["model"] = "another-model"
    assert check(c) == []
    [v] = only(check(c, turn_opaque=True), "EV-TURN-OPAQUE")
    assert (v.event, v.pointer) == (c.at["completed"], "/turn/opaque/model")


@each_dialect
def test_fold_agrees_with_the_fold_of_the_frames(dialect: str) -> None:
    c = case(dialect)
    t = c.at["text2"]
    frame = copy.deepcopy(c.frames[t])
    if dialect == "openai-chat":
        frame["choices"][0]["delta"]["content"] = "LO"
    else:
        frame["delta"]["text"] = "LO"
    c.frames[t] = c.events[t]["opaque"] = frame
    [v] = only(check(c), "EV-FOLD-AGREES")
    assert (v.event, v.pointer) == (c.at["completed"], "/turn/output_text")


@each_dialect
def test_fold_agrees_with_the_known_completion_when_given(dialect: str) -> None:
    c = case(dialect)
    known = copy.deepcopy(c.turn["opaque"])
    assert check(c, known=known) == []
    if dialect == "openai-chat":
        known["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = "{}"
    else:
        known["content"][1]["input"] = {}
    [v] = only(check(c, known=known), "EV-FOLD-AGREES")
    assert v.pointer == "/turn/tool_calls" and "known completion" in v.message


@each_dialect
def test_stop_map(dialect: str) -> None:
    c = case(dialect)
    c.turn["stop_reason"] = "max_tokens"
    [v] = only(check(c), "EV-STOP-MAP")
    assert (v.event, v.pointer) == (c.at["completed"], "/turn/stop_reason")


@each_dialect
def test_stop_tool_an_end_turn_with_calls_is_tool_use(dialect: str) -> None:
    c = case(dialect, **({"finish": "stop"} if dialect == "openai-chat" else {"stop": "end_turn"}))
    assert check(c) == []  # the turn says tool_use
    c.turn["stop_reason"] = "end_turn"
    [v] = only(check(c), "EV-STOP-TOOL")
    assert v.event == c.at["completed"]


@each_dialect
def test_args_invalid_arguments_of_whitespace_alone_are_not_the_empty_object(dialect: str) -> None:
    c = case(dialect)
    for name in ("delta1", "delta2"):
        frame = c.frames[c.at[name]]
        if dialect == "openai-chat":
            frame["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"] = " "
        else:
            frame["delta"]["partial_json"] = " "
        c.events[c.at[name]].update(delta=" ", opaque=frame)
    done = c.at["call_done"]
    c.frames, c.events = c.frames[: done + 1], c.events[:done]
    c.outcome = _error("invalid_tool_arguments")
    assert check(c) == []


def test_a_violation_reads_as_one_line_naming_rule_event_frame_and_pointer() -> None:
    c = case("openai-chat")
    c.events[0], c.events[1] = c.events[1], c.events[0]
    [v] = check(c)
    assert str(v).startswith("EV-FRAME-ORDER (event 1, frame 0): the event's opaque is frame 0")
    assert str(Violation("EV-GRAMMAR", "m")) == "EV-GRAMMAR: m"
    assert str(Violation("PERSIST-STRIP", "m", pointer="/a")) == "PERSIST-STRIP (at /a): m"
