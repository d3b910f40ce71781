"""A difference found on a stream that departs from the plain shape is charged by
ablation (`refold.verdicts.difference_ablation`): to the departures the target's defect needs
(undoing them makes it go away), else by its pointer on the stream it is left on once
the departures it does not need are undone; and AM-USAGE-BASE does not decide a count
message_delta re-reported. Broken Anthropic accumulators are the targets."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from refold.dialects import dialect
from refold.dialects.anthropic_messages.ablation import known_blocks
from refold.dialects.anthropic_messages.attribution import rules_at
from refold.dialects.anthropic_messages.undecided import undecided_at
from refold.records.replay import failure_record
from refold.reference import ABSENT, JSON, JSONObject
from refold.reference.anthropic import differences, fold
from refold.run.checks import Check, ConformanceFailure
from refold.targets import Target, load_target
from refold.verdicts.difference_ablation import _MAX_RUNS, DifferenceAblation, Verdict, ablate

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"
_MESSAGE: JSONObject = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {"input_tokens": 3},
}
_START: JSONObject = {"type": "message_start", "message": _MESSAGE}
_END: list[JSON] = [
    {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}},
    {"type": "message_stop"},
]


def _block(index: int, start: JSONObject, *texts: str, stop: bool = True) -> list[JSON]:
    return [
        {"type": "content_block_start", "index": index, "content_block": start},
        *(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "text_delta", "text": t},
            }
            for t in texts
        ),
        *([{"type": "content_block_stop", "index": index}] if stop else []),
    ]


def _text(index: int, *texts: str, start: str = "", stop: bool = True) -> list[JSON]:
    return _block(index, {"type": "text", "text": start}, *texts, stop=stop)


def _target(name: str) -> Target:
    return load_target(str(_BROKEN / f"{name}.py"))


def _failure(target: Target, events: list[JSON], rules: tuple[str, ...]) -> ConformanceFailure:
    """The failure a differential test of `rules` finds on `events`, ablated as the
    plugin does once the test failed."""
    check = Check(target)
    check.rules = rules
    with pytest.raises(ConformanceFailure) as excinfo:
        check.folds_like_reference(events)
    failure = excinfo.value
    assert failure.ablation is None and failure.chunks == events
    failure.ablation = ablate(events, failure.differences, target, failure.claimed)
    return failure


def test_merged_blocks_found_by_a_block_rule_are_charged_to_the_merge_not_the_departure() -> None:
    merges = _target("anthropic_merges_text_blocks")
    streams = {
        "AM-BLOCK-ORDER": [_START, *_text(1, "b"), *_text(0, "a"), *_END],
        "AM-BLOCK-STOP": [_START, *_text(0, "a"), *_text(1, "b", stop=False), *_END],
        "AM-START-CONTENT": [
            {
                **_START,
                "message": {
                    **_MESSAGE,
                    "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                },
            },
            *_END,
        ],
    }
    for rule_id, events in streams.items():
        failure = _failure(merges, events, (rule_id,))
        assert rule_id in {r for d in failure.differences for r in rules_at(d.pointer)}
        assert set(failure.implicated) == {"AM-TEXT-JOIN", "AM-BLOCK-OPEN"}, rule_id
        assert f"undoing the departure of {rule_id} from the plain shape" not in str(failure)
        assert f"not evidence against {rule_id}" in str(failure)


def test_a_difference_a_departure_is_needed_for_is_charged_to_that_departure() -> None:
    # routed by position: the first block at index 1 gets no delta; in order it would
    routes = _target("anthropic_routes_by_position")
    events = [_START, *_text(1, "Hi"), *_END]
    failure = _failure(routes, events, ("AM-PING", "AM-UNKNOWN-EVENT"))
    assert [d.pointer for d in failure.differences] == ["/content/0/text"]
    assert set(failure.implicated) == {"AM-BLOCK-ORDER", "AM-DELTA-ROUTE"}  # not TEXT-JOIN
    assert "undoing the departure of AM-BLOCK-ORDER from the plain shape" in str(failure)
    # the test's own rule among the departure's wins
    assert _failure(routes, events, ("AM-BLOCK-ORDER",)).implicated == ("AM-BLOCK-ORDER",)


def test_a_re_opened_block_whose_start_text_was_dropped_is_text_joins() -> None:
    events = [_START, *_text(0, start="again"), _text(0)[0], *_END]
    failure = _failure(
        _target("anthropic_drops_start_text"), events, ("AM-BLOCK-REOPEN", "AM-STOP-REASON")
    )
    assert failure.implicated == ("AM-TEXT-JOIN",)
    # the persisted record (results, replay files) says so too
    assert str(failure_record(failure)["message"]).startswith("AM-TEXT-JOIN (text): ")


def test_a_dropped_unknown_block_is_charged_to_the_rules_that_keep_it_as_sent() -> None:
    drops = _target("anthropic_drops_unknown_blocks")
    events = [
        _START,
        *_text(0, "a"),
        *_block(1, {"type": "x_future", "n": 1}),
        *_text(2, "b"),
        *_END,
    ]
    assert set(_failure(drops, events, ("AM-BLOCK-OPEN",)).implicated) == {
        "AM-UNKNOWN-BLOCK",
        "AM-RESULT-AS-SENT",
    }  # not the shifted block's rules
    assert _failure(drops, events, ("AM-BLOCK-OPEN", "AM-RESULT-AS-SENT")).implicated == (
        "AM-RESULT-AS-SENT",
    )
    assert _failure(drops, events, ("AM-UNKNOWN-BLOCK",)).implicated == ("AM-UNKNOWN-BLOCK",)


def test_an_unknown_block_made_known_folds_alike_but_for_its_type() -> None:
    events = [
        {**_START, "message": {**_MESSAGE, "content": [{"type": "x_a", "k": 1}]}},
        *_block(1, {"type": "x_b", "payload": [1]}, "ignored"),
        *_END,
    ]
    undone = known_blocks(events, "redacted_thinking")
    assert [d.pointer for d in differences(fold(events), fold(undone))] == [
        "/content/0/type",
        "/content/1/type",
    ]
    assert fold(undone)["content"][1] == {"type": "redacted_thinking", "payload": [1]}
    assert known_blocks([_START, *_text(0, "a"), *_END], "redacted_thinking") == [
        _START,
        *_text(0, "a"),
        *_END,
    ]


def test_a_count_message_delta_re_reported_is_not_usage_bases() -> None:
    start = {**_START, "message": {**_MESSAGE, "usage": {"input_tokens": 3, "output_tokens": 1}}}
    events = [start, *_text(0, "a"), *_END]
    assert undecided_at(events, "/usage/output_tokens") == {"AM-USAGE-BASE"}
    # the start's stands (message_delta's usage omits it: kept, AM-USAGE-REPLACE's
    # clause); no second report to add it to
    assert undecided_at(events, "/usage/input_tokens") == {"AM-USAGE-NEVER-SUM"}
    no_usage = [
        start,
        *_text(0, "a"),
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}},
        {"type": "message_stop"},
    ]
    assert undecided_at(no_usage, "/usage/input_tokens") == {
        "AM-USAGE-REPLACE",
        "AM-USAGE-NEVER-SUM",
    }
    assert undecided_at(events, "/usage") == frozenset()
    failure = _failure(
        _target("anthropic_sums_message_delta_usage"),
        events,
        ("AM-USAGE-BASE", "AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM"),
    )
    assert [d.pointer for d in failure.differences] == ["/usage/output_tokens"]
    assert set(failure.implicated) == {"AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM"}
    lost = ConformanceFailure(
        ("AM-USAGE-BASE", "AM-USAGE-REPLACE"),
        "differs",
        chunks=events,
        differences=differences(fold(events), {**fold(events), "usage": {"output_tokens": 5}}),
    )
    assert set(lost.implicated) == {"AM-USAGE-BASE", "AM-USAGE-REPLACE"}


def test_a_usage_key_only_a_message_delta_reports_is_usage_replaces_alone() -> None:
    # anthropic-python drops `cache_creation` from message_delta's usage: neither the
    # start's usage (it never held the key) nor a sum (one report) is what went wrong
    delta = {
        "type": "message_delta",
        "delta": {"stop_reason": "end_turn", "stop_sequence": None},
        "usage": {"output_tokens": 0, "cache_creation": {"ephemeral_5m_input_tokens": 0}},
    }
    events = [_START, *_text(0, "a"), delta, {"type": "message_stop"}]
    assert undecided_at(events, "/usage/cache_creation") == {"AM-USAGE-BASE", "AM-USAGE-NEVER-SUM"}
    received = fold(events)
    del received["usage"]["cache_creation"]
    lost = ConformanceFailure(
        ("AM-USAGE-BASE", "AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM"),
        "differs",
        chunks=events,
        differences=differences(fold(events), received),
    )
    assert lost.implicated == ("AM-USAGE-REPLACE",)


def test_a_difference_the_fold_does_not_show_or_a_plain_stream_has_no_verdict(
    tmp_path: Path,
) -> None:
    reference = load_target("reference", dialect=dialect("anthropic-messages"))
    events = [_START, *_text(1, "Hi"), *_END]
    shown = ablate(events, differences(fold(events), {**fold(events), "id": "x"}), reference, None)
    assert shown is not None and shown.verdicts == {} and shown.runs == 1
    plain = [_START, *_text(0, "Hi"), *_END]
    failure = _failure(_target("anthropic_replaces_message_id"), plain, ("AM-TEXT-JOIN",))
    assert failure.ablation is not None and failure.ablation.verdicts == {}
    assert failure.implicated == ("AM-START-BASE",)
    chat = tmp_path / "chat.py"
    chat.write_text("def fold(chunks):\n    return {}\n", encoding="utf-8")
    assert ablate(events, [], load_target(str(chat)), None) is None  # no difference_undos


def test_ablation_folds_each_stream_once_and_at_most_a_bounded_number_of_times() -> None:
    merges = _target("anthropic_merges_text_blocks")
    events: list[JSON] = [
        {"type": "ping"},
        _START,
        *_text(3, "b"),
        *_text(1, "a"),
        {"type": "vertex_event"},
        *_text(2, "c", stop=False),
        *_END,
        {"type": "message_stop"},
    ]
    failure = _failure(merges, events, ("AM-BLOCK-ORDER", "AM-PING"))
    assert failure.ablation is not None
    assert len(failure.differences) > 1 and failure.ablation.runs <= _MAX_RUNS
    assert set(failure.implicated) == {"AM-TEXT-JOIN", "AM-BLOCK-OPEN"}


_MISBEHAVES_WITHOUT_PINGS = """
from refold.reference.anthropic import fold as reference_fold


def fold(events):
    if not any(isinstance(e, dict) and e.get("type") == "ping" for e in events):
        return []  # not an object: a misbehaviour other than a raise
    message = reference_fold(events)
    message["id"] = "msg_other"
    return message


refold_target = {"name": "misbehaves", "dialect": "anthropic-messages", "fold": fold}
"""


def test_a_target_that_misbehaves_other_than_by_raising_is_not_folded_again(
    tmp_path: Path,
) -> None:
    path = tmp_path / "misbehaves.py"
    path.write_text(_MISBEHAVES_WITHOUT_PINGS, encoding="utf-8")
    target = load_target(str(path))
    events: list[JSON] = [{"type": "ping"}, _START, *_text(0, "a"), {"type": "x_event"}, *_END]
    failure = _failure(target, events, ("AM-PING",))
    assert failure.ablation is not None and failure.ablation.runs == 2  # then it stops
    assert failure.implicated == ("AM-START-BASE",)  # by its pointer


def test_a_count_kept_from_one_report_is_no_sum_and_a_count_none_reported_is() -> None:
    # anthropic-python keeps message_start's unknown usage key when message_delta
    # re-reports it: the start's value, not an addition (AM-USAGE-REPLACE's failure)
    start = {**_START, "message": {**_MESSAGE, "usage": {"input_tokens": 3, "x_counter": 2}}}
    delta = {
        "type": "message_delta",
        "delta": {"stop_reason": "end_turn"},
        "usage": {"output_tokens": 5, "x_counter": 3},
    }
    events = [start, *_text(0, "a"), delta, {"type": "message_stop"}]
    pointer = "/usage/x_counter"
    assert "AM-USAGE-NEVER-SUM" not in undecided_at(events, pointer)
    assert "AM-USAGE-NEVER-SUM" not in undecided_at(events, pointer, 5)
    for kept in (2, 3, None):
        assert "AM-USAGE-NEVER-SUM" in undecided_at(events, pointer, kept), kept
    received = fold(events)
    received["usage"]["x_counter"] = 2
    kept_start = ConformanceFailure(
        ("AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM"),
        "differs",
        chunks=events,
        differences=differences(fold(events), received),
    )
    assert set(kept_start.implicated) == {"AM-USAGE-REPLACE"}
    received["usage"]["x_counter"] = 5
    summed = ConformanceFailure(
        ("AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM"),
        "differs",
        chunks=events,
        differences=differences(fold(events), received),
    )
    assert set(summed.implicated) == {"AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM"}


def test_tool_input_that_parses_is_not_tool_invalids_and_a_plain_tool_not_server_tools() -> None:
    # litellm-anthropic turns a tool block with valid JSON input into text: AM-TOOL-INVALID
    # (raw input kept as a string) and AM-SERVER-TOOL (server_tool_use blocks) say nothing
    tool = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
    valid = [_START, *_block(0, tool), *_END]
    valid[2:2] = [
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"a": 1}'},
        }
    ]
    assert undecided_at(valid, "/content/0/input") == {"AM-TOOL-INVALID", "AM-SERVER-TOOL"}
    assert undecided_at(valid, "/content/0/id") == {"AM-TOOL-INVALID", "AM-SERVER-TOOL"}
    cut = copy.deepcopy(valid)
    cut[2]["delta"]["partial_json"] = '{"a": '
    cut[1]["content_block"]["type"] = "server_tool_use"
    assert undecided_at(cut, "/content/0/input") == frozenset()
    received = fold(valid)
    received["content"][0] = {"type": "text", "text": ""}
    lost = ConformanceFailure(
        ("AM-TOOL-JOIN", "AM-TOOL-INVALID", "AM-SERVER-TOOL"),
        "differs",
        chunks=valid,
        differences=differences(fold(valid), received),
    )
    assert "AM-TOOL-JOIN" in lost.implicated
    assert not {"AM-TOOL-INVALID", "AM-SERVER-TOOL"} & set(lost.implicated)


def test_a_lost_usage_object_is_no_sum_and_no_estimate_when_the_start_carried_one() -> None:
    # @ai-sdk/anthropic reads no usage before message_delta: the Message read mid-stream has
    # none. Nothing was added up (AM-USAGE-NEVER-SUM) and nothing estimated from a start
    # without usage (AM-USAGE-ABSENT's clauses): the loss is AM-USAGE-BASE's.
    start = {**_START, "message": {**_MESSAGE, "usage": {"input_tokens": 3, "output_tokens": 1}}}
    events = [start, *_text(0, "a")]
    assert undecided_at(events, "/usage", ABSENT) == {
        "AM-USAGE-NEVER-SUM",
        "AM-USAGE-ABSENT",
        "AM-USAGE-REPLACE",
    }
    delta = {
        "type": "message_delta",
        "delta": {"stop_reason": "end_turn"},
        "usage": {"output_tokens": 5},
    }
    whole = [*events, delta, {"type": "message_stop"}]
    summed = {"input_tokens": 3, "output_tokens": 6}
    assert "AM-USAGE-NEVER-SUM" not in undecided_at(whole, "/usage", summed)
    assert "AM-USAGE-NEVER-SUM" in undecided_at(whole, "/usage", {"output_tokens": 5})
    bare = [
        {**_START, "message": {k: v for k, v in _MESSAGE.items() if k != "usage"}},
        *_text(0, "a"),
        delta,
        {"type": "message_stop"},
    ]
    assert "AM-USAGE-ABSENT" not in undecided_at(bare, "/usage", ABSENT)
    received = fold(events)
    del received["usage"]
    lost = ConformanceFailure(
        ("AM-USAGE-BASE", "AM-USAGE-NEVER-SUM", "AM-USAGE-ABSENT"),
        "differs",
        chunks=events,
        differences=differences(fold(events), received),
    )
    assert set(lost.implicated) == {"AM-USAGE-BASE"}
    # ablation that finds no departure to blame leaves the stream's undecided rules out
    # too (the Message read mid-stream by a lifecycle test went through it)
    lost.ablation = DifferenceAblation({"/usage": Verdict(frozenset(), (), (), frozenset())})
    assert set(lost.implicated) == {"AM-USAGE-BASE"}
