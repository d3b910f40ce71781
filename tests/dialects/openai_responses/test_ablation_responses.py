"""The Responses ablation: each departure from OpenAI's own shape is undone by a change the
reference folds identically except at its own rule's pointers, a family-1 stream has none,
a stream that does not depart gives no evidence against those rules, and a crash or a
difference of a broken Responses accumulator is charged to the rule of its departure."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from _responses_streams import (
    HELLO,
    HELLO_ITEM,
    added,
    call,
    call_events,
    created,
    done,
    message,
    message_events,
    output_text,
    terminal,
)
from hypothesis import HealthCheck, given, settings

from refold.dialects import dialect
from refold.dialects.openai_responses._item_departures import kind_match
from refold.dialects.openai_responses.ablation import (
    DEPARTURES,
    absent_departures,
    applicable_undos,
    departures_alone,
    difference_undos,
)
from refold.dialects.openai_responses.attribution import rules_at
from refold.reference import JSON, JSONObject
from refold.reference.responses import RULES, Difference, differences, fold
from refold.run.checks import Check, ConformanceFailure
from refold.strategies.responses import event_streams, round_trips
from refold.targets import load_target
from refold.verdicts.crashes import analyse
from refold.verdicts.difference_ablation import ablate

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"
_ERROR: JSONObject = {"type": "error", "code": "server_error", "message": "x", "param": None}
_KEEPALIVE: JSONObject = {"type": "keepalive"}


def _types(stream: list[JSON]) -> list[object]:
    return [e.get("type") if isinstance(e, dict) else None for e in stream]


def test_every_departure_is_named_after_a_responses_rule_and_registered() -> None:
    assert {rule for rule, _ in DEPARTURES} <= set(RULES)
    found = dialect("openai-responses")
    assert found.ablation is not None and found.ablation.difference_undos is not None
    assert found.absent_departures is absent_departures


@settings(max_examples=40, deadline=None)
@given(drawn=round_trips(families=frozenset({1})))
def test_a_family_one_stream_departs_in_nothing(drawn: tuple[JSONObject, list[JSON]]) -> None:
    _, events = drawn
    present = [rule for rule, undo in DEPARTURES if undo(events) != events]
    # an incomplete or failed terminal is OpenAI's own shape, and a completed one folds alike
    assert present in ([], ["RS-TERMINAL-EVENTS"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=event_streams())
def test_an_undone_stream_folds_alike_except_at_its_rules_pointers(events: list[JSON]) -> None:
    expected = fold(events)
    undos = applicable_undos(events)
    for _, undone in undos:
        # a failed terminal read as completed is charged RS-FAILED too, whose `error` it nulls
        charged = {rule for rule, same in undos if same == undone}
        assert all(rules_at(d.pointer) & charged for d in differences(expected, fold(undone)))
    for rule_id, deciding, undone in difference_undos(events, frozenset({"refusal"})):
        assert rule_id in deciding
        assert all(rules_at(d.pointer) & deciding for d in differences(expected, fold(undone)))


def test_noise_is_undone_by_dropping_or_renumbering_it() -> None:
    noisy: list[JSON] = [
        {**HELLO[0], "sequence_number": 5},
        _KEEPALIVE,
        {"type": "response.vendor_progress"},
        *HELLO[1:-1],
        _ERROR,
        {"type": "response.output_item.added", "output_index": 3, "item": None},
        HELLO[-1],
    ]
    undos = dict(applicable_undos(noisy))
    assert {"RS-KEEPALIVE", "RS-ERROR-EVENT", "RS-NULL-ITEM", "RS-SEQ-ARRIVAL"} <= set(undos)
    assert _KEEPALIVE not in undos["RS-KEEPALIVE"]
    assert _ERROR not in undos["RS-ERROR-EVENT"]
    assert undos["RS-SEQ-ARRIVAL"][0]["sequence_number"] == 0  # type: ignore[index]
    plain = departures_alone(noisy)[0]
    assert plain[0] == "" and _types(plain[1]) == _types(HELLO)


def test_unknown_keys_are_dropped_from_known_events_only() -> None:
    keyed = [*HELLO[:-2], {**HELLO[-2], "obfuscation": "x1"}, HELLO[-1]]
    undone = dict(applicable_undos(keyed))["RS-UNKNOWN-KEYS"]
    assert undone == HELLO


def test_a_repeated_terminal_keeps_the_last_and_late_events_move_before_the_first() -> None:
    repeated = [*HELLO, terminal("failed", output=[HELLO_ITEM], error={"code": "e"})]
    undos = dict(applicable_undos(repeated))
    assert _types(undos["RS-TERMINAL-REPEAT"]) == [*_types(HELLO[:-1]), "response.failed"]
    late = [created(), terminal(output=[]), *message_events(0, HELLO_ITEM)]
    moved = dict(applicable_undos(late))["LIFE-RS-AFTER"]
    assert _types(moved)[-1] == "response.completed" and len(moved) == len(late)


def test_an_incomplete_terminal_read_as_completed_is_charged_with_its_outcome_rule() -> None:
    events = [
        created(),
        *message_events(0, HELLO_ITEM),
        terminal(
            "incomplete", output=[HELLO_ITEM], incomplete_details={"reason": "max_output_tokens"}
        ),
    ]
    probes = {rule: deciding for rule, deciding, _ in difference_undos(events, frozenset())}
    assert probes["RS-TERMINAL-EVENTS"] == {"RS-TERMINAL-EVENTS", "RS-INCOMPLETE"}
    assert [rule for rule, _ in applicable_undos(events)] == ["RS-TERMINAL-EVENTS", "RS-INCOMPLETE"]


def test_a_failed_terminal_read_as_completed_has_a_null_error() -> None:
    # an SDK that raises on any error it reads (langchain-openai) folds the undone stream
    failed = terminal("failed", output=[HELLO_ITEM], error={"code": "server_error"})
    events = [created(), *message_events(0, HELLO_ITEM), failed]
    sent = copy.deepcopy(events)
    undos = applicable_undos(events)
    assert [rule for rule, _ in undos] == ["RS-TERMINAL-EVENTS", "RS-FAILED"]
    undone = dict(undos)["RS-TERMINAL-EVENTS"][-1]
    assert undone["type"] == "response.completed"  # type: ignore[index]
    assert undone["response"]["error"] is None  # type: ignore[index]
    assert undone["response"]["status"] == "failed"  # type: ignore[index]
    assert events == sent


@pytest.mark.parametrize("absent", [False, True])
def test_a_terminal_with_null_output_is_undone_to_one_sending_the_recovered_items(
    absent: bool,
) -> None:
    ended = terminal(output=None)
    if absent:
        del ended["response"]["output"]  # type: ignore[union-attr]
    for items in (message_events(0, HELLO_ITEM), message_events(0, HELLO_ITEM, dones=False)):
        events: list[JSON] = [created(), *items, ended]
        sent = copy.deepcopy(events)
        undone = dict(applicable_undos(events))["RS-OUTPUT-RECOVER"]
        assert undone[-1]["response"]["output"] == fold(events)["output"]  # type: ignore[index]
        assert undone[-1]["response"]["output"][0]["content"] == HELLO_ITEM["content"]  # type: ignore[index]
        assert not differences(fold(events), fold(undone))
        assert events == sent
        assert "RS-OUTPUT-RECOVER" not in {
            rule for rule, _, _ in difference_undos(events, frozenset())
        }


def test_only_a_terminal_with_null_output_departs_in_what_it_recovers() -> None:
    assert "RS-OUTPUT-RECOVER" not in dict(applicable_undos(HELLO))
    emptied = [*HELLO[:-1], terminal(output=[])]  # a list an SDK reads as sent
    assert "RS-OUTPUT-RECOVER" not in dict(applicable_undos(emptied))
    streamed_nothing = [created(), terminal(output=None)]
    undone = dict(applicable_undos(streamed_nothing))["RS-OUTPUT-RECOVER"]
    assert undone[-1]["response"]["output"] == []  # type: ignore[index]


def test_orphan_content_gets_its_announcement_first() -> None:
    orphaned = [created(), *message_events(0, HELLO_ITEM)[1:], terminal(output=[])]
    undone = dict(applicable_undos(orphaned))["RS-ORPHAN"]
    assert _types(undone)[1] == "response.output_item.added"
    assert undone[1]["item"] == {
        "type": "message",
        "id": "msg_1",  # type: ignore[index]
        "status": "in_progress",
        "role": "assistant",
        "content": [],
    }
    late = [
        created(),
        *message_events(0, HELLO_ITEM)[1:3],
        message_events(0, HELLO_ITEM)[0],
        *message_events(0, HELLO_ITEM)[3:],
        terminal(output=[]),
    ]
    moved = dict(applicable_undos(late))["RS-ORPHAN"]
    assert _types(moved)[:3] == [
        "response.created",
        "response.output_item.added",
        "response.content_part.added",
    ]


def test_rotated_ids_are_given_back_and_drifted_indexes_follow_the_id() -> None:
    events = message_events(0, HELLO_ITEM)
    rotated = [
        created(),
        events[0],
        *({**e, "item_id": f"rot_{n}"} for n, e in enumerate(events[1:-1])),
        done(0, {**HELLO_ITEM, "id": "msg_rotated"}),
        terminal(output=[]),
    ]
    steady = dict(applicable_undos(rotated))["RS-KEY-OUTPUT-INDEX"]
    assert {e.get("item_id") for e in steady[2:-2] if isinstance(e, dict)} == {"msg_1"}
    assert steady[-2]["item"]["id"] == "msg_1"  # type: ignore[index]
    drifted = [
        created(),
        events[0],
        *({**e, "output_index": 4} for e in events[1:]),
        terminal(output=[]),
    ]
    routed = dict(applicable_undos(drifted))["RS-ROUTE"]
    assert {e.get("output_index") for e in routed[1:-1] if isinstance(e, dict)} == {0}


def test_refusal_parts_stand_in_as_output_text_parts_only_where_refusal_is_claimed() -> None:
    refused = message("msg_3", {"type": "refusal", "refusal": "No."})
    events = [created(), *message_events(0, refused, dones=False), terminal(output=[])]
    probes = {rule: undone for rule, _, undone in difference_undos(events, frozenset({"refusal"}))}
    found = differences(fold(events), fold(probes["RS-REFUSAL"]))
    assert {d.pointer for d in found} <= {
        "/output/0/content/0/type",
        "/output/0/content/0/refusal",
        "/output/0/content/0/text",
    }
    assert "RS-REFUSAL" not in {rule for rule, _, _ in difference_undos(events, frozenset())}


def test_a_plain_stream_gives_no_evidence_against_the_departure_rules() -> None:
    absent = absent_departures(HELLO)
    assert absent >= {
        "RS-ORPHAN",
        "RS-READD",
        "RS-ROUTE",
        "RS-KEY-OUTPUT-INDEX",
        "RS-OUTPUT-ORDER",
        "RS-KIND-MATCH",
        "RS-CONTENT-INDEX",
        "RS-TERMINAL-REPEAT",
        "RS-NULL-ITEM",
        "RS-ERROR-EVENT",
        "RS-OUTPUT-RECOVER",
        "RS-INCOMPLETE",
        "RS-FAILED",
    }
    assert "RS-OUTPUT-TERMINAL" not in absent
    recovered = [*HELLO[:-1], terminal(output=[])]
    assert "RS-OUTPUT-RECOVER" not in absent_departures(recovered)
    assert "RS-OUTPUT-TERMINAL" in absent_departures(recovered)
    readded = [*HELLO[:-1], added(0, HELLO_ITEM), HELLO[-1]]
    assert "RS-READD" not in absent_departures(readded)


def test_a_missing_item_is_charged_to_output_recover_alone_on_a_plain_stream() -> None:
    recovered = [*HELLO[:-1], terminal(output=[])]
    failure = ConformanceFailure(
        ("RS-ORPHAN", "RS-OUTPUT-RECOVER"),
        "differs",
        chunks=recovered,
        differences=[Difference("/output/0", HELLO_ITEM, None)],
    )
    assert failure.implicated == ("RS-OUTPUT-RECOVER",)


def _add_all(accumulator: Any, events: list[JSON]) -> None:
    for event in events:
        accumulator.add(event)


def _crash(name: str, events: list[JSON], rules: tuple[str, ...]) -> ConformanceFailure:
    target = load_target(str(_BROKEN / f"{name}.py"))
    check = Check(target)
    check.rules = rules
    accumulator = check.accumulator()
    with pytest.raises(ConformanceFailure) as raised:
        _add_all(accumulator, events)
    failure = raised.value
    assert failure.crash is not None
    analyse(failure.crash, failure.chunks or [], target)
    return failure


@pytest.mark.parametrize(
    ("name", "events", "charged"),
    [
        ("responses_error_event_raises", [*HELLO[:-1], _ERROR, HELLO[-1]], "RS-ERROR-EVENT"),
        (
            "responses_unknown_event_raises",
            [created(), {"type": "response.vendor_progress"}, *HELLO[1:]],
            "RS-KEEPALIVE",
        ),
        (
            "responses_orphan_content_raises",
            [created(), *message_events(0, HELLO_ITEM)[1:], terminal(output=[HELLO_ITEM])],
            "RS-ORPHAN",
        ),
        (
            "responses_item_id_must_not_change",
            [
                created(),
                *message_events(0, HELLO_ITEM)[:-1],
                done(0, {**HELLO_ITEM, "id": "msg_rotated"}),
                terminal(output=[HELLO_ITEM]),
            ],
            "RS-KEY-OUTPUT-INDEX",
        ),
    ],
)
def test_a_crash_is_charged_to_its_departure_and_blocks_the_tests_rules(
    name: str, events: list[JSON], charged: str
) -> None:
    failure = _crash(name, events, ("LIFE-RS-FINISHED", "RS-TEXT-JOIN"))
    assert failure.implicated == (charged,)
    assert set(failure.blocked) == {"LIFE-RS-FINISHED", "RS-TEXT-JOIN"}


def test_a_dropped_refusal_found_by_a_test_of_recovery_is_charged_to_refusal() -> None:
    target = load_target(str(_BROKEN / "responses_drops_refusals.py"))
    refused = message(
        "msg_3",
        {"type": "refusal", "refusal": "No."},
        output_text(
            "After.",
            [{"type": "url_citation", "url": "https://x.y", "start_index": 0, "end_index": 1}],
        ),
    )
    events: list[JSON] = [created(), *message_events(0, refused, dones=False), terminal(output=[])]
    expected, received = fold(events), target.fold(copy.deepcopy(events))
    found = differences(expected, received)
    failure = ConformanceFailure(
        ("RS-OUTPUT-RECOVER", "RS-TEXT-JOIN"),
        "differs",
        chunks=events,
        differences=found,
        claimed=target.features,
    )
    failure.ablation = ablate(events, found, target, target.features)
    assert failure.implicated == ("RS-REFUSAL",)


def _undone_by(rule_id: str, stream: list[JSON]) -> list[JSON]:
    """The stream `rule_id`'s undo gives, trusted (the reference folds it alike)."""
    found = [undone for rule, undone in applicable_undos(stream) if rule == rule_id]
    assert found, f"no trusted {rule_id} undo of {_types(stream)}"
    return found[0]


def test_rs_terminal_base_opens_a_headless_stream_with_the_terminals_created_response() -> None:
    headless = [terminal(output=[HELLO_ITEM])]
    opened = _undone_by("RS-TERMINAL-BASE", headless)
    assert _types(opened) == ["response.created", "response.completed"]
    assert opened[0]["response"]["id"] == "resp_1"  # type: ignore[index,call-overload]
    assert "RS-TERMINAL-BASE" not in [rule for rule, _ in applicable_undos(HELLO)]
    assert "RS-TERMINAL-BASE" not in [rule for rule, _ in applicable_undos(HELLO[:-1][1:])]


def test_rs_wrong_type_leaves_out_the_events_a_mistyped_field_leaves_changing_nothing() -> None:
    bare: list[JSON] = [{"type": "response.in_progress"}, {"type": "response.completed"}]
    stray = {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0}
    mistyped = [HELLO[0], bare[0], *HELLO[1:3], {**stray, "delta": 7}, *HELLO[3:], bare[1]]
    assert _undone_by("RS-WRONG-TYPE", mistyped) == HELLO


def test_rs_env_terminal_gives_every_lifecycle_response_the_terminals_id() -> None:
    renamed = copy.deepcopy(HELLO)
    renamed[0]["response"]["id"] = "resp_created"  # type: ignore[index,call-overload]
    assert _undone_by("RS-ENV-TERMINAL", renamed) == HELLO


def test_rs_env_fill_empties_the_output_a_lifecycle_response_holds() -> None:
    stale = copy.deepcopy(HELLO)
    stale[0]["response"]["output"] = [message("msg_stale", output_text("stale"))]  # type: ignore[index,call-overload]
    assert _undone_by("RS-ENV-FILL", stale) == HELLO


def test_rs_kind_match_leaves_out_exactly_the_events_that_do_not_fit_their_item() -> None:
    stray = {"type": "response.output_text.delta", "item_id": "fc_1", "output_index": 0}
    calls = [created(), *call_events(0, call()), terminal(output=[call()])]
    mismatched = [*calls[:2], {**stray, "content_index": 0, "delta": "x"}, *calls[2:]]
    assert kind_match(mismatched)
    assert _undone_by("RS-KIND-MATCH", mismatched) == calls


def test_rs_content_index_sends_parts_in_index_order_and_annotations_at_the_end() -> None:
    citation = {"type": "url_citation", "url": "https://x.y", "start_index": 0, "end_index": 1}
    item = message("msg_1", output_text("A", [citation, citation]), output_text("B"))
    plain = [created(), *message_events(0, item), terminal(output=[item])]
    parts = [e for e in plain if isinstance(e, dict) and "content_index" in e]
    first, second = parts[: len(parts) // 2 + 1], parts[len(parts) // 2 + 1 :]
    assert {e["content_index"] for e in first} == {0}  # type: ignore[index]
    swapped = [*plain[:2], *second, *first, *plain[2 + len(parts) :]]
    gapped = copy.deepcopy(plain)
    last = max(n for n, e in enumerate(gapped) if "annotation_index" in e)  # type: ignore[operator]
    gapped[last]["annotation_index"] = 7  # type: ignore[index,call-overload]
    for departing in (swapped, gapped):
        assert "RS-CONTENT-INDEX" not in absent_departures(departing)
        assert _undone_by("RS-CONTENT-INDEX", departing) == plain


def test_an_orphan_item_never_done_is_announced_and_done_on_the_plain_stream() -> None:
    orphaned = [created(), *call_events(0, call())[1:3], terminal(output=[])]
    plain = departures_alone(orphaned)[0]
    assert plain[0] == ""
    assert _types(plain[1])[1:2] == ["response.output_item.added"]
    assert "response.output_item.done" in _types(plain[1])


def test_an_item_cut_by_response_incomplete_is_done_as_recovered_before_completed() -> None:
    cut = [created(), *call_events(0, call())[:2], terminal("incomplete", output=[])]
    kept = dict(departures_alone(cut))
    plain = kept[""]
    done_item = next(e for e in plain if isinstance(e, dict) and e["type"].endswith("item.done"))
    assert done_item["item"]["status"] == "incomplete"  # type: ignore[index,call-overload]
    assert _types(plain)[-1] == "response.completed"
    assert "RS-TERMINAL-EVENTS" in kept  # the incomplete terminal alone, the item done


def test_an_empty_delta_is_no_departure_but_a_probe_of_the_rule_joining_it() -> None:
    calls = [created(), *call_events(0, call()), terminal(output=[call()])]
    empty = {"type": "response.function_call_arguments.delta", "item_id": "fc_1"}
    with_empty = [*calls[:2], {**empty, "output_index": 0, "delta": ""}, *calls[2:]]
    assert all(undo(with_empty) == with_empty for rule, undo in DEPARTURES if "JOIN" in rule)
    probes = {rule: undone for rule, _, undone in difference_undos(with_empty, frozenset())}
    assert probes["RS-ARGS-JOIN"] == calls


def test_calls_sharing_a_call_id_are_undone_for_rs_call_ids_changing_only_call_ids() -> None:
    first, second = call(item_id=None), call('{"n": 2}', item_id=None)
    shared = [
        created(),
        *call_events(0, first)[:1],
        done(0, first),
        *call_events(1, second)[:1],
        done(1, second),
        terminal(output=[first, second]),
    ]
    probes = {rule: undone for rule, _, undone in difference_undos(shared, frozenset())}
    found = differences(fold(shared), fold(probes["RS-CALL-IDS"]))
    assert [(d.pointer, d.received) for d in found] == [("/output/1/call_id", "call_abc_1")]
    assert dict(DEPARTURES)["RS-CALL-IDS"](shared) == probes["RS-CALL-IDS"]
    assert "RS-CALL-IDS" in {rule for rule, _ in applicable_undos(shared)}


def test_rs_env_fill_sends_a_sparse_terminal_the_keys_the_fold_fills_it_with() -> None:
    sparse = copy.deepcopy(HELLO)
    body = sparse[-1]["response"]  # type: ignore[index,call-overload]
    for key in ("id", "model", "created_at"):
        del body[key]
    filled = _undone_by("RS-ENV-FILL", sparse)
    assert filled[-1]["response"]["id"] == "resp_1"  # type: ignore[index,call-overload]
    assert differences(fold(sparse), fold(filled)) == []


def test_rs_wrong_type_leaves_out_an_item_event_whose_output_index_names_no_item() -> None:
    stray = {"type": "response.output_text.delta", "output_index": "0", "content_index": 0}
    mistyped = [*HELLO[:3], {**stray, "delta": "X"}, *HELLO[3:]]
    assert _undone_by("RS-WRONG-TYPE", mistyped) == HELLO


def test_rs_wrong_type_leaves_out_a_terminal_output_that_is_not_a_list() -> None:
    mistyped = copy.deepcopy(HELLO)
    mistyped[-1]["response"]["output"] = {"0": "x"}  # type: ignore[index,call-overload]
    undone = _undone_by("RS-WRONG-TYPE", mistyped)
    assert "output" not in undone[-1]["response"]  # type: ignore[index,call-overload]
    assert undone[:-1] == HELLO[:-1]
