"""Events precision (issue 24 point 6, verdicts.md §2): a provider-events failure is charged
to the rules whose places its evidence points at, not to every rule of the test that met it.

Three kinds of evidence carried no rule of their own before: an adapter's raise (charged to
the test's rules: nine for the grammar property), a differential against the reference
adapter (`/events` owned every event rule, so one missing TextDelta failed the eleven event
rules of the damaged-stream test) and a rule example's expected events (every rule it is
marked with). Each is now charged by its places: the events the reference emits for the frame
the adapter raised on (and EV-FRAME-COVER), the variant or field of each event that differs
after aligning the two lists, the error kind of an outcome. Each violation also states its
impact (verdicts.md §3), which `ConformanceFailure.impact` reads.
"""

from __future__ import annotations

from typing import Any

import pytest

from refold.dialects.provider_events import PROVIDER_EVENTS
from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.dialects.provider_events.adapters.python import adapter_target
from refold.reference.events import (
    Adapter,
    check_events,
    differing_events,
    differing_outcome,
    missing_at_raise,
    normalize,
)
from refold.run.checks import ConformanceFailure

CHAT, RESPONSES = "openai-chat", "openai-responses"
GRAMMAR = (
    "EV-GRAMMAR",
    "EV-COMPLETED-LAST",
    "EV-NO-EMPTY-DELTA",
    "EV-CALL-STARTED",
    "EV-IDS-SINGLE-USE",
    "EV-CALL-IDENTITY",
    "EV-STARTED-COMPLETED",
    "EV-NO-DELTA-AFTER-COMPLETED",
    "EV-ARGS-PARSED",
)
"""The rules of the lossless grammar property (suites/events/test_events_round_trip.py)."""
DAMAGED = (
    "EV-TEXT",
    "EV-ARGS-DELTA",
    "EV-USAGE",
    "EV-OPAQUE-FALLBACK",
    "EV-UNKNOWN",
    "EV-TRUNCATED",
    "EV-ERROR-FRAME",
    "EV-NOTHING-AFTER-ERROR",
    "EV-ARGS-INVALID",
    "EV-REASONING-OPAQUE",
    "EV-HOSTED-OPAQUE",
    "EV-CALL-ROUTE",
    "PERSIST-CANARY",
)
"""The rules of the damaged-stream differential (suites/events/test_events_properties.py)."""


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": 0, "delta": delta}
    if finish:
        choice["finish_reason"] = finish
    return {
        "id": "chatcmpl-p",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-p",
        "choices": [choice],
    }


CHAT_TEXT = [
    chunk({"role": "assistant", "content": ""}),
    chunk({"content": "Hel"}),
    chunk({"content": "lo"}),
    chunk({}, "stop"),
    "[DONE]",
]

RESPONSE = {
    "id": "resp_0",
    "object": "response",
    "created_at": 1700000000,
    "model": "gpt-5",
    "status": "in_progress",
    "output": [],
    "usage": None,
    "incomplete_details": None,
    "error": None,
}
RESPONSES_WITHOUT_OUTPUT = [
    {"type": "response.created", "response": RESPONSE, "sequence_number": 0},
    {"type": "response.in_progress", "response": RESPONSE, "sequence_number": 1},
    {
        "type": "response.completed",
        "sequence_number": 2,
        "response": {
            "id": "resp_0",
            "object": "response",
            "created_at": 1700000000,
            "status": "completed",
            "model": "gpt-5",
        },
    },
]
"""The stream of pydantic-ai's committed report whose raise failed nine grammar rules."""


class _Wrapped:
    """The reference adapter with one defect, set by a subclass's `changed`."""

    def begin(self, dialect: str) -> None:
        self.adapter = Adapter(dialect)
        self.number = -1

    def frame(self, frame: Any) -> list[Any]:
        self.number += 1
        return self.changed(self.number, self.adapter.frame(frame))

    def changed(self, number: int, events: list[Any]) -> list[Any]:
        return events

    def end(self) -> dict[str, Any]:
        return self.adapter.end()

    def persisted(self) -> Any:
        return self.adapter.persisted()


class RaisesOnTheFinish(_Wrapped):
    def changed(self, number: int, events: list[Any]) -> list[Any]:
        if number == 3:
            raise KeyError("finish_reason")
        return events


class DropsTheSecondText(_Wrapped):
    """Sends the frame of the text "lo" as an Opaque: on a cut stream (no turn to hold
    the text to) only the differential sees it."""

    def changed(self, number: int, events: list[Any]) -> list[Any]:
        return [
            {"type": "Opaque", "event_type": "message", "payload": e["opaque"]}
            if e.get("delta") == "lo"
            else e
            for e in events
        ]


class CompletesCutStreams(_Wrapped):
    def end(self) -> dict[str, Any]:
        end = self.adapter.end()
        if end.get("outcome") == "error":
            return {"outcome": "completed", "events": end.get("events", [])}
        return end


def check_of(adapter: type, rules: tuple[str, ...]) -> EventsCheck:
    target = adapter_target(
        {"adapter": adapter, "accepts": [CHAT, RESPONSES], "provider": None}, "precision", None
    )
    check = EventsCheck(target)
    check.rules = rules
    return check


# --- a raise -------------------------------------------------------------------------


def test_a_raise_is_charged_to_the_rules_of_what_the_reference_emits_for_its_frame() -> None:
    with pytest.raises(ConformanceFailure) as raised:
        check_of(RaisesOnTheFinish, GRAMMAR).keeps_contract(CHAT, CHAT_TEXT)
    failure = raised.value
    # the finish chunk gives the reference an Opaque: a grammar test's rules own neither it
    # nor the frame, so the raise is charged there, the grammar rules blocked, not failed
    assert failure.implicated == ("EV-FRAME-COVER", "EV-OPAQUE-FALLBACK")
    assert set(failure.blocked) == set(GRAMMAR)
    assert failure.impact == "crash"
    assert "raised reading frame 3" in str(failure)


def test_a_raise_on_a_terminal_charges_the_tests_rule_of_the_missing_completed() -> None:
    class RaisesOnTheTerminal(_Wrapped):
        def changed(self, number: int, events: list[Any]) -> list[Any]:
            if number == 2:
                raise TypeError("'NoneType' object is not iterable")
            return events

    with pytest.raises(ConformanceFailure) as raised:
        check_of(RaisesOnTheTerminal, GRAMMAR).keeps_contract(RESPONSES, RESPONSES_WITHOUT_OUTPUT)
    assert raised.value.implicated == ("EV-COMPLETED-LAST",)


def test_a_raise_no_frame_names_is_charged_to_the_tests_rules_as_before() -> None:
    class RaisesAtTheStart(_Wrapped):
        def begin(self, dialect: str) -> None:
            raise RuntimeError("no begin")

    with pytest.raises(ConformanceFailure) as raised:
        check_of(RaisesAtTheStart, GRAMMAR).keeps_contract(CHAT, CHAT_TEXT)
    assert set(raised.value.implicated) == set(GRAMMAR)
    assert raised.value.impact == "crash"


def test_missing_at_raise_names_each_event_due_at_the_frame_and_the_frame() -> None:
    found = missing_at_raise(2, {"type": "x"}, [{"type": "Usage"}, {"type": "Completed"}])
    assert [(v.rule, v.frame, v.impact) for v in found] == [
        ("EV-USAGE", 2, "crash"),
        ("EV-COMPLETED-LAST", 2, "crash"),
        ("EV-FRAME-COVER", 2, "crash"),
    ]
    assert [v.rule for v in missing_at_raise(4, "[DONE]", [{"type": "Completed"}])] == [
        "EV-COMPLETED-LAST"
    ]


# --- a differential --------------------------------------------------------------------


def test_one_text_delta_sent_as_an_opaque_fails_ev_text_alone_in_the_differential() -> None:
    cut = CHAT_TEXT[:3]
    with pytest.raises(ConformanceFailure) as raised:
        check_of(DropsTheSecondText, DAMAGED).agrees_with_reference(CHAT, cut)
    failure = raised.value
    # before: the eleven event rules of the test's thirteen, all owning the pointer /events
    assert failure.implicated == ("EV-TEXT",)
    assert failure.impact == "loss"
    assert failure.differences == []
    assert "event 2" in str(failure)


def test_a_cut_stream_completed_fails_the_rules_of_its_two_places_only() -> None:
    with pytest.raises(ConformanceFailure) as raised:
        check_of(CompletesCutStreams, DAMAGED).agrees_with_reference(CHAT, CHAT_TEXT[:3])
    # the checker's two places: the outcome of cut frames, and no Completed in a completed
    # stream; none of the test's eleven other rules
    assert raised.value.implicated == ("EV-COMPLETED-LAST", "EV-TRUNCATED")
    assert raised.value.impact == "loss"


def test_an_event_in_another_place_is_one_order_violation_not_a_loss() -> None:
    text = [{"type": "TextDelta", "delta": d} for d in "ab"]
    usage = {"type": "Usage", "usage": {"input_tokens": 1}}
    found = differing_events([*text, usage], [text[0], usage, text[1]])
    assert [(v.rule, v.impact) for v in found] == [("EV-FRAME-ORDER", "corruption")]


def test_a_field_that_differs_is_charged_to_the_rule_of_that_field() -> None:
    completed = {"type": "Completed", "turn": {"stop_reason": "tool_use", "output_text": ""}}
    changed = {"type": "Completed", "turn": {"stop_reason": "end_turn", "output_text": ""}}
    started = {"type": "ToolCallStarted", "id": "call_1", "name": "f"}
    found = differing_events([started, completed], [{**started, "id": "fc_1"}, changed])
    assert [(v.rule, v.event, v.pointer) for v in found] == [
        ("EV-CALL-ROUTE", 0, "/id"),
        ("EV-STOP-MAP", 1, "/turn/stop_reason"),
    ]


def test_events_after_an_expected_error_break_nothing_after_error() -> None:
    opaque = {"type": "Opaque", "event_type": "error"}
    late = [{"type": "TextDelta", "delta": "x"}, {"type": "Completed", "turn": {}}]
    found = differing_events([opaque], [opaque, *late], expected_error=True)
    assert [v.rule for v in found] == ["EV-NOTHING-AFTER-ERROR", "EV-NO-COMPLETED-ON-ERROR"]


@pytest.mark.parametrize(
    ("expected", "received", "rule", "impact"),
    [
        (("error", "truncated"), ("completed", None), "EV-TRUNCATED", "corruption"),
        (("error", "provider_error"), ("error", "truncated"), "EV-ERROR-FRAME", "corruption"),
        (("completed", None), ("error", "invalid_tool_arguments"), "EV-ARGS-INVALID", "loss"),
        (("completed", None), ("error", None), "EV-COMPLETED-LAST", "loss"),
    ],
)
def test_an_outcome_is_charged_to_the_rule_of_the_kind_that_differs(
    expected: tuple[str, str | None], received: tuple[str, str | None], rule: str, impact: str
) -> None:
    found = differing_outcome(expected, received)
    assert [(v.rule, v.impact) for v in found] == [(rule, impact)]


# --- a rule example's expected events ----------------------------------------------------


def test_a_rule_example_charges_the_marked_rule_of_the_place_that_differs() -> None:
    with pytest.raises(ConformanceFailure) as raised:
        check_of(DropsTheSecondText, ("EV-TEXT", "EV-TEXT-CONSERVE")).emits(
            CHAT,
            CHAT_TEXT,
            [{"type": "TextDelta", "delta": d} for d in ("Hel", "lo")],
            kinds={"TextDelta"},
        )
    assert raised.value.implicated == ("EV-TEXT",)
    assert raised.value.impact == "loss"


def test_a_rule_example_charges_its_own_rules_for_a_place_it_is_not_marked_with() -> None:
    with pytest.raises(ConformanceFailure) as raised:
        check_of(DropsTheSecondText, ("EV-TEXT-CONSERVE",)).emits(
            CHAT,
            CHAT_TEXT,
            [{"type": "TextDelta", "delta": d} for d in ("Hel", "lo")],
            kinds={"TextDelta"},
        )
    assert raised.value.implicated == ("EV-TEXT-CONSERVE",)


# --- impact of the checker's own violations ------------------------------------------------


def test_each_violation_of_the_checker_states_its_impact() -> None:
    frames = [chunk({"content": "Hel"}), chunk({"content": ""}), chunk({}, "stop"), "[DONE]"]
    events = normalize(CHAT, frames)["events"]
    empty = [*events[:1], {"type": "TextDelta", "delta": "", "opaque": frames[1]}, *events[1:]]
    found = check_events(CHAT, frames, empty, "completed")
    assert {(v.rule, v.impact) for v in found} == {("EV-NO-EMPTY-DELTA", "representation")}
    turn = {**events[-1]["turn"], "output_text": "He"}
    short = [*events[:-1], {**events[-1], "turn": turn}]
    assert {
        (v.rule, v.impact)
        for v in check_events(CHAT, frames, short, "completed")
        if v.rule == "EV-TEXT-CONSERVE"
    } == {("EV-TEXT-CONSERVE", "loss")}
    no_completed = check_events(CHAT, frames, events[:-1], "completed")
    assert ("EV-COMPLETED-LAST", "loss") in {(v.rule, v.impact) for v in no_completed}


def test_a_failure_with_violations_and_no_differences_has_their_worst_impact() -> None:
    failure = ConformanceFailure(
        ("EV-TEXT",),
        "s",
        violations=(("EV-TEXT", "a"), ("EV-NO-EMPTY-DELTA", "b")),
        violation_impacts=("representation", "loss"),
    )
    assert failure.impact == "loss"
    # a failure holding nothing to read its cost off: the target did what the spec forbids
    assert ConformanceFailure(("EV-TEXT",), "s").impact == "corruption"


# --- pydantic-ai's real stream -------------------------------------------------------------


def test_pydantic_ais_raise_on_a_terminal_without_output_fails_one_grammar_rule() -> None:
    pytest.importorskip("pydantic_ai", reason="install refold[pydantic-ai]")
    from refold.targets import load_target

    check = EventsCheck(load_target("pydantic-ai-events", dialect=PROVIDER_EVENTS))
    check.rules = GRAMMAR
    with pytest.raises(ConformanceFailure) as raised:
        check.keeps_contract(RESPONSES, RESPONSES_WITHOUT_OUTPUT)
    # before: EV-GRAMMAR, EV-COMPLETED-LAST, EV-NO-EMPTY-DELTA, EV-CALL-STARTED,
    # EV-IDS-SINGLE-USE, EV-ARGS-PARSED, EV-CALL-IDENTITY, EV-STARTED-COMPLETED,
    # EV-NO-DELTA-AFTER-COMPLETED (the test's nine rules, "unexplained crash")
    assert raised.value.implicated == ("EV-COMPLETED-LAST",)
    assert raised.value.impact == "crash"


def test_an_outcome_assertion_fails_with_the_impact_of_the_outcome_that_differs() -> None:
    with pytest.raises(ConformanceFailure) as raised:
        check_of(CompletesCutStreams, ("EV-TRUNCATED", "EV-ERROR-FRAME")).ends(
            CHAT, CHAT_TEXT[:3], "error", kind="truncated"
        )
    assert raised.value.implicated == ("EV-TRUNCATED",)
    assert raised.value.impact == "corruption"


def test_a_suites_own_assertion_has_the_impact_of_what_it_compared() -> None:
    check = check_of(_Wrapped, ("EV-STOP-MAP",))
    lost = check.fail("s", expected={"text": "Hello"}, received={"text": "He"})
    wrong = check.fail("s", expected="tool_use", received="end_turn")
    assert (lost.impact, wrong.impact) == ("loss", "corruption")


def test_a_raise_at_the_end_of_the_body_is_charged_to_what_is_due_there() -> None:
    class RaisesAtTheEnd(_Wrapped):
        def end(self) -> dict[str, Any]:
            raise IndexError("list index out of range")

    with pytest.raises(ConformanceFailure) as raised:
        check_of(RaisesAtTheEnd, GRAMMAR).keeps_contract(CHAT, CHAT_TEXT[:4])
    # a body ending after the finish without [DONE]: the reference completes at the end
    assert raised.value.implicated == ("EV-COMPLETED-LAST",)
    assert "raised at the end of the body" in str(raised.value)
    with pytest.raises(ConformanceFailure) as cut:
        check_of(RaisesAtTheEnd, DAMAGED).keeps_contract(CHAT, CHAT_TEXT[:2])
    assert cut.value.implicated == ("EV-TRUNCATED",)  # the outcome due there
    assert cut.value.impact == "crash"


def test_a_raise_where_nothing_is_due_is_charged_to_the_outcome_due() -> None:
    class RaisesAfterTheError(_Wrapped):
        def changed(self, number: int, events: list[Any]) -> list[Any]:
            if number == 2:
                raise IndexError("list index out of range")
            return events

    error = {"error": {"message": "overloaded", "type": "server_error"}}
    frames = [chunk({"content": "Hel"}), error, chunk({"content": "lo"}), "[DONE]"]
    with pytest.raises(ConformanceFailure) as raised:
        check_of(RaisesAfterTheError, GRAMMAR).keeps_contract(CHAT, frames)
    assert raised.value.implicated == ("EV-ERROR-FRAME",)
    assert "nothing is due" in str(raised.value)
