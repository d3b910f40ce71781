"""The Anthropic ablation: each departure from family 1 is undone by a change the reference
folds identically except at its own rule's pointers, a plain stream has none, and a crash
of a broken Anthropic accumulator is charged to the rule of the departure that makes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from refold.dialects import dialect
from refold.dialects.anthropic_messages.ablation import (
    DEPARTURES,
    absent_departures,
    applicable_undos,
    departures_alone,
    difference_undos,
)
from refold.dialects.anthropic_messages.attribution import rules_at
from refold.reference import JSON, JSONObject
from refold.reference.anthropic import RULES, Difference, differences, fold
from refold.run.checks import Check, ConformanceFailure
from refold.strategies.anthropic import round_trips
from refold.targets import load_target
from refold.verdicts.crashes import analyse

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"
_MESSAGE: JSONObject = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
}
_START: JSONObject = {"type": "message_start", "message": _MESSAGE}
_TEXT: list[JSON] = [
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
    {"type": "content_block_stop", "index": 0},
]
_END: list[JSON] = [
    {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}},
    {"type": "message_stop"},
]
WITHOUT_USAGE: list[JSON] = [_START, *_TEXT, *_END]


def _type(event: JSON) -> object:
    return event.get("type") if isinstance(event, dict) else None


def test_every_departure_is_named_after_an_anthropic_rule() -> None:
    assert {rule for rule, _ in DEPARTURES} <= set(RULES)
    assert dialect("anthropic-messages").ablation is not None


@settings(max_examples=30, deadline=None)
@given(drawn=round_trips(families=frozenset({1})))
def test_a_family_one_stream_departs_in_nothing(drawn: tuple[JSONObject, list[JSON]]) -> None:
    _, events = drawn
    present = [rule for rule, undo in DEPARTURES if undo(events) != events]
    assert present in ([], ["AM-USAGE-ABSENT"])  # a message drawn without usage has none


@settings(max_examples=30, deadline=None)
@given(drawn=round_trips())
def test_an_undone_stream_folds_alike_except_at_its_rules_pointers(
    drawn: tuple[JSONObject, list[JSON]],
) -> None:
    _, events = drawn
    expected = fold(events)
    for rule_id, undone in applicable_undos(events):
        assert all(rule_id in rules_at(d.pointer) for d in differences(expected, fold(undone)))


def test_adding_usage_changes_the_fold_at_usage_only_and_is_trusted() -> None:
    undos = dict(applicable_undos(WITHOUT_USAGE))
    assert set(undos) == {"AM-USAGE-ABSENT"}
    found = differences(fold(WITHOUT_USAGE), fold(undos["AM-USAGE-ABSENT"]))
    assert [d.pointer for d in found] == ["/usage"]


def test_noise_is_undone_by_dropping_it() -> None:
    noisy: list[JSON] = [
        {"type": "ping"},
        _START,
        {"type": "vertex_event"},
        *_TEXT,
        {"type": "ping"},
        *_END,
        {"type": "content_block_stop", "index": 0},
    ]
    undos = dict(applicable_undos(noisy))
    assert {
        "AM-PING",
        "AM-BEFORE-START",
        "AM-UNKNOWN-EVENT",
        "AM-LIFE-AFTER-STOP",
        "AM-USAGE-ABSENT",
    } == set(undos)
    assert undos["AM-BEFORE-START"][0] == _START
    assert {"type": "ping"} not in undos["AM-PING"]
    alone = departures_alone(noisy)
    plain = alone[0][1]
    assert alone[0][0] == "" and [_type(e) for e in plain] == [
        "message_start",
        *(_type(e) for e in _TEXT),
        "message_delta",
        "message_stop",
    ]
    assert [rule for rule, _ in alone[1:]] == [
        "AM-BEFORE-START",
        "AM-PING",
        "AM-UNKNOWN-EVENT",
        "AM-LIFE-AFTER-STOP",
        "AM-USAGE-ABSENT",
    ]


def test_blocks_in_message_start_are_moved_to_block_events() -> None:
    block = {"type": "text", "text": "Done."}
    start: JSONObject = {
        "type": "message_start",
        "message": {**_MESSAGE, "content": [block], "stop_reason": "end_turn", "usage": {}},
    }
    events: list[JSON] = [start, {"type": "message_stop"}]
    undos = dict(applicable_undos(events))
    assert set(undos) == {"AM-START-CONTENT"}
    assert undos["AM-START-CONTENT"][1] == {
        "type": "content_block_start",
        "index": 0,
        "content_block": block,
    }


def _crash(name: str, events: list[JSON], rules: tuple[str, ...]) -> ConformanceFailure:
    target = load_target(str(_BROKEN / f"{name}.py"))
    check = Check(target)
    check.rules = rules
    accumulator = check.accumulator()
    for event in events[:-1]:
        try:
            accumulator.add(event)
        except ConformanceFailure as exc:
            failure = exc
            break
    else:
        pytest.fail(f"{name} did not raise on {events}")
    assert failure.crash is not None
    analyse(failure.crash, failure.chunks or [], target)
    return failure


def test_a_crash_without_usage_is_charged_to_usage_absent_and_blocks_the_tests_rules() -> None:
    failure = _crash("anthropic_crash_without_usage", WITHOUT_USAGE, ("AM-TEXT-JOIN",))
    assert failure.implicated == ("AM-USAGE-ABSENT",)
    assert failure.blocked == ("AM-TEXT-JOIN",)


@pytest.mark.parametrize(
    ("first", "charged"),
    [
        ({"type": "ping"}, {"AM-PING", "AM-BEFORE-START"}),
        ({"type": "vertex_event"}, {"AM-UNKNOWN-EVENT", "AM-BEFORE-START"}),
        ({"type": "content_block_stop", "index": 0}, {"AM-BEFORE-START"}),
    ],
)
def test_a_raise_before_message_start_is_charged_to_the_rules_of_that_event(
    first: JSONObject,
    charged: set[str],
) -> None:
    start: JSONObject = {**_START, "message": {**_MESSAGE, "usage": {"input_tokens": 1}}}
    failure = _crash(
        "anthropic_ping_before_start_raises", [first, start, *_TEXT, *_END], ("AM-DELTA-ROUTE",)
    )
    assert set(failure.implicated) == charged


def _text_block(index: int, *texts: str) -> list[JSON]:
    return [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "text", "text": ""},
        },
        *(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "text_delta", "text": t},
            }
            for t in texts
        ),
        {"type": "content_block_stop", "index": index},
    ]


def test_block_departures_are_undone_to_family_one() -> None:
    gaps_and_disorder: list[JSON] = [_START, *_text_block(3, "b"), *_text_block(1, "a"), *_END]
    reopened: list[JSON] = [_START, *_text_block(0, "a"), _text_block(0)[0], *_END]
    misrouted: list[JSON] = [_START, *_TEXT, _text_block(5, "x")[1], *_END]
    unstopped: list[JSON] = [_START, *_TEXT[:2], *_END]
    cases = {
        "AM-BLOCK-ORDER": gaps_and_disorder,
        "AM-BLOCK-REOPEN": reopened,
        "AM-DELTA-ROUTE": misrouted,
        "AM-BLOCK-STOP": unstopped,
    }
    for rule_id, stream in cases.items():
        undos = dict(applicable_undos(stream))
        assert rule_id in undos, (rule_id, sorted(undos))
        assert not differences(fold(stream), fold(undos[rule_id]))
    assert dict(applicable_undos(gaps_and_disorder))["AM-BLOCK-ORDER"][1:7] == [
        *_text_block(0, "a"),
        *_text_block(1, "b"),
    ]


def test_a_stream_that_does_not_depart_gives_no_evidence_against_those_rules() -> None:
    plain: list[JSON] = [_START, *_TEXT, *_END]
    assert absent_departures(plain) >= {
        "AM-BLOCK-ORDER",
        "AM-BLOCK-REOPEN",
        "AM-DELTA-ROUTE",
        "AM-DELTA-MATCH",
        "AM-BLOCK-STOP",
        "AM-START-CONTENT",
        "AM-UNKNOWN-BLOCK",
    }
    # a start text dropped by the target: AM-TEXT-JOIN's, not the delta rules'
    failure = ConformanceFailure(
        ("AM-USAGE-BASE",),
        "differs",
        chunks=plain,
        differences=[Difference("/content/0/text", "Hi", "i")],
    )
    assert failure.implicated == ("AM-TEXT-JOIN",)
    reopened: list[JSON] = [_START, *_TEXT, _text_block(0)[0], *_END]
    assert "AM-BLOCK-REOPEN" not in absent_departures(reopened)
    unknown: list[JSON] = [
        _START,
        {"type": "content_block_start", "index": 0, "content_block": {"type": "x_block_future"}},
        *_END,
    ]
    assert "AM-UNKNOWN-BLOCK" not in absent_departures(unknown)


def _thinking_block(index: int, *deltas: JSON) -> list[JSON]:
    start = {"type": "thinking", "thinking": "", "signature": ""}
    return [
        {"type": "content_block_start", "index": index, "content_block": start},
        *({"type": "content_block_delta", "index": index, "delta": d} for d in deltas),
        {"type": "content_block_stop", "index": index},
    ]


_SIG_A: JSONObject = {"type": "signature_delta", "signature": "SigA"}
_SIG_B: JSONObject = {"type": "signature_delta", "signature": "SigB"}
_HM: JSONObject = {"type": "thinking_delta", "thinking": "Hm"}


@pytest.mark.parametrize(
    "deltas",
    [(_HM, _SIG_A, _SIG_B), (_SIG_A, _HM), (_SIG_A, _HM, _SIG_B, _HM)],
    ids=["resigned", "thinking-after", "both"],
)
def test_a_signature_not_sent_last_is_undone_to_one_last_signature(
    deltas: tuple[JSONObject, ...],
) -> None:
    # AQ10: the page sends one signature_delta, "just before the content_block_stop event";
    # the last string one decides (AM-THINK-SIGNATURE), so it alone is kept, moved there
    stream: list[JSON] = [_START, *_thinking_block(0, *deltas), *_END]
    undone = dict(applicable_undos(stream))["AM-THINK-SIGNATURE"]
    last = [d for d in deltas if d["type"] == "signature_delta"][-1]
    thoughts = [d for d in deltas if d != last and d["type"] == "thinking_delta"]
    assert undone == [_START, *_thinking_block(0, *thoughts, last), *_END]
    assert not differences(fold(stream), fold(undone))


def test_a_signature_sent_once_and_last_is_no_departure() -> None:
    stream: list[JSON] = [_START, *_thinking_block(0, _HM, _SIG_A), *_text_block(1, "x"), *_END]
    assert "AM-THINK-SIGNATURE" not in dict(applicable_undos(stream))


def test_a_signature_that_is_not_a_string_is_left_where_it_is() -> None:
    # it replaces nothing (AM-THINK-SIGNATURE): a wrong type's business, not the order's
    wrong: JSON = {"type": "signature_delta", "signature": None}
    stream: list[JSON] = [_START, *_thinking_block(0, _HM, _SIG_A, wrong), *_END]
    undone = dict(applicable_undos(stream))["AM-THINK-SIGNATURE"]
    assert undone == [_START, *_thinking_block(0, _HM, wrong, _SIG_A), *_END]


def test_interleaved_thinking_blocks_each_signed_last_are_no_signature_departure() -> None:
    # block 0's signature comes after block 1's events, yet it is its own block's last
    # delta: the interleaving is AM-BLOCK-ORDER's departure, not AM-THINK-SIGNATURE's
    first, second = _thinking_block(0, _HM, _SIG_A), _thinking_block(1, _HM, _SIG_B)
    stream: list[JSON] = [_START, first[0], first[1], *second, first[2], first[3], *_END]
    undos = dict(applicable_undos(stream))
    assert "AM-THINK-SIGNATURE" not in undos
    assert "AM-BLOCK-ORDER" in undos


def test_a_resent_signature_charges_crashes_but_is_never_probed_for_differences() -> None:
    # AM-THINK-SIGNATURE decides every signature: a difference left after the undo (a
    # target that drops signatures) may still be its, so no probe may clear it
    stream: list[JSON] = [_START, *_thinking_block(0, _HM, _SIG_A, _SIG_B), *_END]
    assert "AM-THINK-SIGNATURE" in dict(applicable_undos(stream))
    assert "AM-THINK-SIGNATURE" not in {
        rule for rule, _, _ in difference_undos(stream, frozenset(RULES))
    }


def test_a_start_without_usage_beside_a_delta_with_some_is_given_no_count() -> None:
    # AM-USAGE-ABSENT owns `/usage`, not its counts: zeros on the start would add an
    # input count the stream never reported, and the undo would not be trusted
    start: JSONObject = {"type": "message_start", "message": _MESSAGE}  # no usage
    delta: JSON = {"type": "message_delta", "delta": {"stop_reason": "end_turn"}}
    counted: JSON = {**delta, "usage": {"output_tokens": 5}}  # type: ignore[dict-item]
    stream: list[JSON] = [start, *_TEXT, delta, counted, {"type": "message_stop"}]
    undone = dict(applicable_undos(stream))["AM-USAGE-ABSENT"]
    assert undone[0]["message"]["usage"] == {}  # type: ignore[index]
    assert undone[-3]["usage"] == {}  # type: ignore[index]
    assert not differences(fold(stream), fold(undone))


def _citation(**changes: JSON) -> JSONObject:
    return {
        "type": "char_location",
        "cited_text": "Hi",
        "document_index": 0,
        "start_char_index": 0,
        "end_char_index": 2,
        **changes,
    }


def _tool(*fragments: str) -> list[JSON]:
    block = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
    return [
        _START,
        {**_TEXT[0], "content_block": block},
        *(
            {**_TEXT[1], "delta": {"type": "input_json_delta", "partial_json": f}}
            for f in fragments
        ),
        _TEXT[2],
        *_END,
    ]


def test_a_tool_input_of_whitespace_alone_is_no_joining_departure() -> None:
    # only AM-TOOL-NO-DELTA decides it (the start's input stands)
    assert "AM-TOOL-JOIN" not in dict(applicable_undos(_tool("", " ", "\n")))


def _cited(citation: JSONObject) -> list[JSON]:
    delta = {"type": "citations_delta", "citation": citation}
    return [_START, *_TEXT[:2], {**_TEXT[1], "delta": delta}, _TEXT[2], *_END]


@pytest.mark.parametrize(
    ("rule_id", "departing", "plain"),
    [
        # a delta whose one field has the wrong type adds nothing: it is dropped whole
        (
            "AM-ROB-WRONG-TYPE",
            [_START, *_TEXT[:2], {**_TEXT[1], "delta": {"type": "text_delta", "text": None}}],
            [_START, *_TEXT[:2]],
        ),
        (
            "AM-ROB-WRONG-TYPE",
            [_START, {**_TEXT[1], "delta": {"type": "signature_delta", "signature": 3}}],
            [_START],
        ),
        # a message_delta without its delta gets the one that sets nothing
        (
            "AM-ROB-WRONG-TYPE",
            [_START, *_TEXT, {"type": "message_delta", "usage": {"output_tokens": 3}}],
            [
                _START,
                *_TEXT,
                {
                    "type": "message_delta",
                    "usage": {"output_tokens": 3},
                    "delta": {"stop_reason": None, "stop_sequence": None},
                },
            ],
        ),
        # a second message_start changes nothing
        ("AM-START-ONCE", [_START, *_TEXT, _START, *_END], [_START, *_TEXT, *_END]),
        # the error is terminal and never in the Message: the stream is cut before it
        (
            "AM-LIFE-ERROR",
            [_START, *_TEXT[:2], {"type": "error", "error": {}}, *_TEXT[2:], *_END],
            [_START, *_TEXT[:2]],
        ),
        ("AM-LIFE-ERROR", [{"type": "error", "error": {}}, _START, *_TEXT, *_END], []),
        # a blank start text or thinking starts from ""
        (
            "AM-TEXT-JOIN",
            [_START, {**_TEXT[0], "content_block": {"type": "text"}}, *_TEXT[1:], *_END],
            [_START, *_TEXT, *_END],
        ),
        (
            "AM-THINK-JOIN",
            [_START, {**_TEXT[0], "content_block": {"type": "thinking", "thinking": None}}],
            [_START, {**_TEXT[0], "content_block": {"type": "thinking", "thinking": ""}}],
        ),
        # JSON whitespace before a tool input: parsed once, as a whole, it is nothing
        (
            "AM-TOOL-JOIN",
            _tool("", "\n ", ' {"a": ', "1} "),
            _tool("", "", '{"a": ', "1} "),
        ),
        # the title key a citation always carries, null when there is none
        (
            "AM-CITATIONS-APPEND",
            _cited(_citation()),
            _cited(_citation(document_title=None)),
        ),
    ],
    ids=[
        "null-text",
        "number-signature",
        "message-delta-without-delta",
        "second-start",
        "error-mid-block",
        "error-first",
        "start-without-text",
        "null-start-thinking",
        "tool-input-after-whitespace",
        "untitled-citation",
    ],
)
def test_each_departure_is_undone_to_the_plain_shape_the_reference_folds_alike(
    rule_id: str, departing: list[JSON], plain: list[JSON]
) -> None:
    undone = dict(applicable_undos(departing))
    assert undone.get(rule_id) == plain, sorted(undone)
    assert rule_id not in dict(applicable_undos(plain))


def test_a_message_start_after_message_stop_or_without_a_message_is_no_second_start() -> None:
    # the first is AM-LIFE-AFTER-STOP's, the second a wrong type that starts nothing
    after: list[JSON] = [_START, *_TEXT, *_END, _START]
    blank: list[JSON] = [_START, *_TEXT, {"type": "message_start", "message": 1}, *_END]
    assert "AM-START-ONCE" not in dict(applicable_undos(after))
    assert "AM-START-ONCE" not in dict(applicable_undos(blank))


def test_an_error_after_message_stop_is_not_the_errors_departure() -> None:
    late: list[JSON] = [_START, *_TEXT, *_END, {"type": "error", "error": {}}]
    assert "AM-LIFE-ERROR" not in dict(applicable_undos(late))
    assert "AM-LIFE-AFTER-STOP" in dict(applicable_undos(late))


def test_the_rules_deciding_every_text_thinking_and_citation_are_never_probed_for_differences() -> (
    None
):
    # their undos add only what the rule reads anyway; a difference left after them may
    # still be that rule's (every text, thinking and citation is), so nothing clears it
    untitled = _cited(_citation())
    blank: list[JSON] = [_START, {**_TEXT[0], "content_block": {"type": "text"}}, *_TEXT[1:]]
    for stream in (untitled, blank):
        probed = {rule for rule, _, _ in difference_undos(stream, frozenset())}
        assert not probed & {"AM-CITATIONS-APPEND", "AM-TEXT-JOIN", "AM-THINK-JOIN"}


def test_taking_the_streamed_citations_out_is_a_probe_of_citations_for_a_target_claiming_them() -> (
    None
):
    # a documented citation a target's validator refuses (a null title) is that rule's,
    # whatever test drew it: without the citations_delta only `/content/N/citations` changes
    stream = _cited(_citation(document_title=None))
    probes = {
        rule: (deciding, s)
        for rule, deciding, s in difference_undos(stream, frozenset({"citations"}))
    }
    deciding, uncited = probes["AM-CITATIONS-APPEND (uncited)"]
    assert deciding == {"AM-CITATIONS-APPEND"}
    assert uncited == [_START, *_TEXT, *_END]
    unclaimed = {rule for rule, _, _ in difference_undos(stream, frozenset())}
    assert "AM-CITATIONS-APPEND (uncited)" not in unclaimed


@pytest.mark.parametrize(
    ("events", "charged"),
    [
        # AQ24: anthropic-python adds text_delta.text to the start's missing text (None)
        (
            [_START, {**_TEXT[0], "content_block": {"type": "text"}}, *_TEXT[1:], *_END],
            "AM-TEXT-JOIN",
        ),
        # anthropic-python encodes a null partial_json fragment
        (
            [
                _START,
                {
                    **_TEXT[0],
                    "content_block": {"type": "tool_use", "id": "t", "name": "f", "input": {}},
                },
                {**_TEXT[1], "delta": {"type": "input_json_delta", "partial_json": '{"a": '}},
                {**_TEXT[1], "delta": {"type": "input_json_delta", "partial_json": None}},
                {**_TEXT[1], "delta": {"type": "input_json_delta", "partial_json": "1}"}},
                _TEXT[2],
                *_END,
            ],
            "AM-ROB-WRONG-TYPE",
        ),
    ],
    ids=["start-without-text", "null-input-fragment"],
)
def test_an_sdk_crash_on_a_departure_is_charged_to_the_rule_that_undoes_it(
    events: list[JSON], charged: str
) -> None:
    pytest.importorskip("anthropic")
    target = load_target("anthropic")
    check = Check(target)
    check.rules = ("AM-PING",)  # a test of another rule drew the stream
    with pytest.raises(ConformanceFailure) as raised:
        check.fold(events)
    failure = raised.value
    assert failure.crash is not None
    analyse(failure.crash, failure.chunks or [], target)
    assert failure.implicated == (charged,)


def test_a_citation_that_is_not_an_object_is_left_to_the_wrong_type_undo() -> None:
    stream = _cited(_citation(document_title=None))
    wrong: JSON = {**_TEXT[1], "delta": {"type": "citations_delta", "citation": "char_location"}}
    stream.insert(3, wrong)
    probes = {rule: s for rule, _, s in difference_undos(stream, frozenset({"citations"}))}
    assert wrong in probes["AM-CITATIONS-APPEND (uncited)"]
    assert wrong not in probes["AM-ROB-WRONG-TYPE"]
