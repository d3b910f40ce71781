"""The event checker on the event-sequence rules: each rule's valid and violating list.

Every violating list breaks exactly one rule, at a known event (see `_event_streams`:
event i comes from frame i), for the frames of both dialects.
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
    delta,
    errored_case,
    opaque,
    started,
    text,
    usage,
)

from refold.reference.events import Violation, check_events

pytestmark = pytest.mark.parametrize("dialect", DIALECTS)


def check(c: Case, **options: Any) -> list[Violation]:
    return check_events(c.dialect, c.frames, c.events, c.outcome, **options)


def only(found: list[Violation], rule: str) -> list[Violation]:
    assert found, f"expected a {rule} violation, found none"
    assert {v.rule for v in found} == {rule}, [str(v) for v in found]
    return found


def test_the_valid_streams_break_no_rule(dialect: str) -> None:
    for c in (case(dialect), errored_case(dialect)):
        assert check(c, provider=PROVIDER, turn_opaque=True) == []


def test_grammar_an_unknown_key_is_reported_at_its_pointer(dialect: str) -> None:
    c = case(dialect)
    c.events[c.at["text1"]]["index"] = 0
    [v] = only(check(c), "EV-GRAMMAR")
    assert (v.event, v.pointer) == (c.at["text1"], "/index")


def test_grammar_an_unknown_type_is_reported(dialect: str) -> None:
    c = case(dialect)
    c.events[c.at["first"]]["type"] = "Reasoning"
    [v] = only(check(c), "EV-GRAMMAR")
    assert (v.event, v.pointer) == (c.at["first"], "/type")


def test_grammar_reads_the_turn_and_its_usage_counters(dialect: str) -> None:
    c = case(dialect)
    c.turn["stop_reason"] = "stop"  # the raw Chat value, not the StopReason vocabulary
    c.turn["usage"]["reasoning_tokens"] = -1
    del c.turn["provider"]
    found = only(check(c), "EV-GRAMMAR")
    assert sorted(v.pointer or "" for v in found) == [
        "/turn/provider",
        "/turn/stop_reason",
        "/turn/usage/reasoning_tokens",
    ]
    assert {v.event for v in found} == {c.at["completed"]}


def test_grammar_an_integral_float_counter_is_an_integer(dialect: str) -> None:
    c = case(dialect)
    c.events[c.at["usage"]]["usage"]["output_tokens"] = c.turn["usage"]["output_tokens"] = float(
        c.turn["usage"]["output_tokens"]
    )
    assert check(c) == []


def test_grammar_an_outcome_outside_the_protocol_is_reported(dialect: str) -> None:
    c = case(dialect)
    c.outcome = "ok"
    [v] = only(check(c), "EV-GRAMMAR")
    assert v.event is None and "'ok'" in v.message


def test_grammar_an_error_kind_outside_the_protocol_is_reported(dialect: str) -> None:
    c = errored_case(dialect)
    c.outcome = {"outcome": "error", "error": {"kind": "overloaded"}}
    only(check(c), "EV-GRAMMAR")


def test_completed_last_a_completed_before_the_end(dialect: str) -> None:
    c = case(dialect)
    u, done = c.at["usage"], c.at["completed"]
    c.events[u], c.events[done] = c.events[done], c.events[u]
    [v] = only(check(c), "EV-COMPLETED-LAST")
    assert v.event == u


def test_completed_last_a_second_completed(dialect: str) -> None:
    c = case(dialect)
    c.events.append(copy.deepcopy(c.events[-1]))
    [v] = only(check(c), "EV-COMPLETED-LAST")
    assert v.event == len(c.events) - 1


def test_completed_last_no_completed(dialect: str) -> None:
    c = case(dialect)
    c.events.pop()
    [v] = only(check(c), "EV-COMPLETED-LAST")
    assert v.event is None


def test_no_completed_on_error(dialect: str) -> None:
    c = errored_case(dialect)
    c.events.append(case(dialect).events[-1])
    [v] = only(check(c), "EV-NO-COMPLETED-ON-ERROR")
    assert v.event == len(c.events) - 1


def test_call_started_a_call_never_announced(dialect: str) -> None:
    c = case(dialect)
    s = c.at["started"]
    c.events[s] = opaque(
        c.frames[s], "message" if dialect == "openai-chat" else "content_block_start"
    )
    found = only(check(c), "EV-CALL-STARTED")
    assert [v.event for v in found] == [c.at["delta1"], c.at["delta2"], c.at["call_done"]]


def test_ids_single_use_a_call_started_twice(dialect: str) -> None:
    c = case(dialect)
    s = c.at["started"]
    c.events.insert(s + 1, copy.deepcopy(c.events[s]))
    [v] = only(check(c), "EV-IDS-SINGLE-USE")
    assert v.event == s + 1


def test_ids_single_use_a_call_completed_twice(dialect: str) -> None:
    c = case(dialect)
    d = c.at["call_done"]
    c.events.insert(d + 1, copy.deepcopy(c.events[d]))
    [v] = only(check(c), "EV-IDS-SINGLE-USE")
    assert v.event == d + 1


def test_no_delta_after_completed(dialect: str) -> None:
    c = case(dialect)
    d = c.at["call_done"]
    c.events.insert(d + 1, delta(c.events[d]["call"]["id"], " ", c.frames[d]))
    [v] = only(check(c), "EV-NO-DELTA-AFTER-COMPLETED")
    assert v.event == d + 1


def test_started_completed_a_call_left_open(dialect: str) -> None:
    # The turn still holds the call (it agrees with the fold), so EV-TURN-CALLS sees a
    # call in the turn that no ToolCallCompleted gave: the two rules break together.
    c = case(dialect)
    d = c.at["call_done"]
    c.events[d] = opaque(
        c.frames[d], "message" if dialect == "openai-chat" else "content_block_stop"
    )
    found = check(c)
    assert {v.rule for v in found} == {"EV-STARTED-COMPLETED", "EV-TURN-CALLS"}
    assert [v.event for v in found if v.rule == "EV-STARTED-COMPLETED"] == [c.at["started"]]


def test_call_identity_a_call_completing_under_another_name(dialect: str) -> None:
    c = errored_case(dialect)  # no turn, so the turn's calls do not break as well
    c.events[c.at["call_done"]]["call"]["name"] = "get_time"
    [v] = only(check(c), "EV-CALL-IDENTITY")
    assert (v.event, v.pointer) == (c.at["call_done"], "/call/name")


def test_args_parsed_arguments_left_as_a_string(dialect: str) -> None:
    c = errored_case(dialect)
    c.events[c.at["call_done"]]["call"]["arguments"] = '{"city":"Paris"}'
    [v] = only(check(c), "EV-ARGS-PARSED")
    assert (v.event, v.pointer) == (c.at["call_done"], "/call/arguments")


def test_args_conserve_deltas_that_do_not_join_to_the_arguments(dialect: str) -> None:
    c = case(dialect)
    c.events[c.at["delta2"]]["delta"] = ':"Rome"}'
    [v] = only(check(c), "EV-ARGS-CONSERVE")
    assert v.event == c.at["call_done"]


def test_args_conserve_empty_joined_arguments_are_the_empty_object(dialect: str) -> None:
    c = errored_case(dialect)
    for name in ("delta1", "delta2"):
        c.events[c.at[name]]["delta"] = ""
    c.events[c.at["call_done"]]["call"]["arguments"] = {}
    found = only(check(c), "EV-NO-EMPTY-DELTA")  # "" joins to "", which is {}
    assert [v.event for v in found] == [c.at["delta1"], c.at["delta2"]]


def test_args_conserve_whitespace_alone_is_not_the_empty_object(dialect: str) -> None:
    c = errored_case(dialect)
    for name in ("delta1", "delta2"):
        c.events[c.at[name]]["delta"] = " "
    c.events[c.at["call_done"]]["call"]["arguments"] = {}
    [v] = only(check(c), "EV-ARGS-CONSERVE")
    assert v.event == c.at["call_done"]


def test_args_optional_a_call_with_no_delta_is_not_held_to_deltas(dialect: str) -> None:
    c = case(dialect)
    for name in ("delta1", "delta2"):
        c.events[c.at[name]] = opaque(
            c.frames[c.at[name]], "message" if dialect == "openai-chat" else "content_block_delta"
        )
    assert check(c) == []


def test_no_empty_delta(dialect: str) -> None:
    c = case(dialect)
    t = c.at["text2"]
    c.events.insert(t + 1, text("", c.frames[t]))
    [v] = only(check(c), "EV-NO-EMPTY-DELTA")
    assert (v.event, v.pointer) == (t + 1, "/delta")


def test_text_conserve(dialect: str) -> None:
    c = case(dialect)
    c.events[c.at["text2"]]["delta"] = "lo!"
    [v] = only(check(c), "EV-TEXT-CONSERVE")
    assert (v.event, v.pointer) == (c.at["completed"], "/turn/output_text")


def test_turn_calls_the_turn_holds_other_calls_than_were_completed(dialect: str) -> None:
    c = case(dialect)
    c.events[c.at["delta2"]]["delta"] = ':"Rome"}'
    c.events[c.at["call_done"]]["call"]["arguments"] = {"city": "Rome"}
    [v] = only(check(c), "EV-TURN-CALLS")
    assert (v.event, v.pointer) == (c.at["completed"], "/turn/tool_calls")


def test_usage_last(dialect: str) -> None:
    c = case(dialect)
    c.turn["usage"]["output_tokens"] = 6
    [v] = only(check(c), "EV-USAGE-LAST")
    assert (v.event, v.pointer) == (c.at["completed"], "/turn/usage")


def test_usage_unreported(dialect: str) -> None:
    c = case(dialect)
    for number, event in enumerate(c.events):
        if event["type"] == "Usage":
            c.events[number] = opaque(
                c.frames[number],
                "message" if dialect == "openai-chat" else c.frames[number]["type"],
            )
    [v] = only(check(c), "EV-USAGE-UNREPORTED")
    assert v.event == c.at["completed"]
    c.turn["usage"] = dict(NULL_USAGE)
    assert check(c) == []


def test_usage_monotone(dialect: str) -> None:
    c = case(dialect)
    u = c.at["usage"]
    c.events.insert(u, usage(c.frames[u], None, 99))
    [v] = only(check(c), "EV-USAGE-MONOTONE")
    assert (v.event, v.pointer) == (u + 1, "/usage/output_tokens")


def test_checks_never_raise_on_junk_events(dialect: str) -> None:
    c = case(dialect)
    c.events[1:1] = [
        1,
        None,
        "x",
        [],
        {"type": "ToolCallCompleted", "call": "c"},
        {"type": "ToolCallArgumentsDelta", "id": 3, "delta": None},
        {"type": "Completed", "turn": None},
        {"type": "Usage", "usage": []},
    ]
    found = check(c)
    assert found and all(isinstance(v, Violation) for v in found)


def test_unknown_dialect_is_the_callers_error(dialect: str) -> None:
    with pytest.raises(ValueError, match=r"'gemini'.*openai-responses"):
        check_events("gemini", [], [], "completed")


def test_every_violation_is_returned_not_only_the_first(dialect: str) -> None:
    c = case(dialect)
    c.events[c.at["text1"]]["index"] = 0  # EV-GRAMMAR
    c.events[c.at["text2"]]["delta"] = "lo!"  # EV-TEXT-CONSERVE
    c.events[c.at["delta2"]]["delta"] = ':"Rome"}'  # EV-ARGS-CONSERVE
    c.turn["usage"]["output_tokens"] = 6  # EV-USAGE-LAST
    c.events.insert(
        c.at["started"] + 1, started(c.events[c.at["started"]]["id"], c.frames[c.at["started"]])
    )  # single use
    c.events.append(copy.deepcopy(c.events[-1]))  # EV-COMPLETED-LAST
    rules = {v.rule for v in check(c)}
    assert rules >= {
        "EV-GRAMMAR",
        "EV-TEXT-CONSERVE",
        "EV-ARGS-CONSERVE",
        "EV-USAGE-LAST",
        "EV-IDS-SINGLE-USE",
        "EV-COMPLETED-LAST",
    }


@pytest.mark.parametrize(
    "outcome", ["error", {"outcome": "error", "error": {"kind": "inconsistent_tool_arguments"}}]
)
def test_completed_last_a_complete_stream_failed_with_no_rule_of_its_own(
    dialect: str, outcome: Any
) -> None:
    c = case(dialect)
    c.events.pop()
    c.outcome = outcome
    [v] = only(check(c), "EV-COMPLETED-LAST")
    assert v.frame == (c.at["completed"] if dialect != "openai-chat" else len(c.frames) - 1)
