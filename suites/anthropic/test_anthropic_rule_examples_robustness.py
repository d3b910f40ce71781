"""Rule examples: robustness (AM-PING, AM-UNKNOWN-*, AM-ROB-*): what the fold skips,
keeps, and refuses."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from refold.reference import JSON, JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from .._expect import needs, refuses_as_array
from ._events import (
    block_start,
    block_stop,
    citation_delta,
    delta,
    message,
    message_delta,
    message_start,
    ping,
    stop,
    text,
    text_delta,
    text_start,
    text_stream,
)
from ._expect import expect_fold, expect_message

_HI = message(text("Hi!"), stop_reason="end_turn")
"""What `_hi` folds into, whatever noise is added to it."""


def _hi(
    *,
    after_start: Sequence[JSONObject] = (),
    inside: Sequence[JSONObject] = (),
    after_block: Sequence[JSONObject] = (),
    before_stop: Sequence[JSONObject] = (),
) -> list[JSONObject]:
    """The basic "Hi!" stream with extra events at four places."""
    return [
        message_start(),
        *after_start,
        text_start(0),
        text_delta(0, "Hi"),
        *inside,
        text_delta(0, "!"),
        block_stop(0),
        *after_block,
        message_delta("end_turn", None),
        *before_stop,
        stop(),
    ]


@rule("AM-PING")
def test_pings_anywhere_change_nothing(check: Check) -> None:
    # the docs: "event streams may also include any number of ping events"
    events = [
        ping(),
        *_hi(
            after_start=[ping(), ping()],
            inside=[ping()],
            after_block=[ping()],
            before_stop=[ping()],
        ),
        ping(),
    ]
    expect_fold(check, events, _HI)


@rule("AM-PING")
def test_a_ping_with_extra_fields_changes_nothing(check: Check) -> None:
    odd_ping = {
        "type": "ping",
        "index": 0,
        "delta": {"type": "text_delta", "text": "x"},
        "usage": {"output_tokens": 99},
        "message": {"id": "msg_ping"},
    }
    expect_fold(check, _hi(inside=[odd_ping], before_stop=[odd_ping]), _HI)


@rule("AM-UNKNOWN-EVENT")
def test_a_vertex_event_changes_nothing_and_never_raises(check: Check) -> None:
    # AQ20, vercel/ai#11309: Vertex's `vertex_event` duplicates usage; folding it in
    # (or failing validation on it, as @ai-sdk/anthropic did) corrupts the Message
    vertex = {
        "type": "vertex_event",
        "usage": {"input_tokens": 25, "output_tokens": 3, "tiers": {"standard": 25}},
    }
    expect_fold(check, _hi(after_start=[vertex], inside=[vertex], before_stop=[vertex]), _HI)


@rule("AM-UNKNOWN-EVENT")
def test_an_unknown_event_that_looks_like_a_known_one_changes_nothing(check: Check) -> None:
    # a fold must dispatch on `type`, not on which keys an event happens to carry
    lookalikes: list[JSONObject] = [
        {
            "type": "content_block_delta_v2",
            "index": 0,
            "delta": {"type": "text_delta", "text": "X"},
        },
        {"type": "message_update", "delta": {"stop_reason": "max_tokens"}},
        {"type": "content_block_begin", "index": 1, "content_block": text("ghost")},
    ]
    expect_fold(check, _hi(inside=lookalikes, before_stop=lookalikes), _HI)


@rule("AM-UNKNOWN-EVENT")
def test_an_event_with_a_blank_or_missing_type_changes_nothing(check: Check) -> None:
    # §1.7: Bedrock's type-less invocation metrics chunks duplicate the usage
    typeless: list[JSONObject] = [
        {"amazon-bedrock-invocationMetrics": {"inputTokenCount": 25, "outputTokenCount": 3}},
        {"type": None, "index": 0, "delta": {"type": "text_delta", "text": "X"}},
        {"type": "", "index": 0, "delta": {"type": "text_delta", "text": "Y"}},
        {"type": "  ", "delta": {"stop_reason": "max_tokens"}},
        {"type": 3, "index": 1, "content_block": text("ghost")},
        {},
    ]
    expect_fold(check, _hi(inside=typeless, before_stop=typeless), _HI)


@rule("AM-UNKNOWN-DELTA")
def test_an_unknown_delta_changes_nothing_and_the_block_keeps_folding(check: Check) -> None:
    # AQ21: compaction_delta is a delta type added later; a fold that appends `text`
    # whatever the delta type adds "X" here
    unknown = [
        delta(0, {"type": "compaction_delta", "content": "summary"}),
        delta(0, {"type": "text_delta_v2", "text": "X"}),
    ]
    expect_fold(check, _hi(inside=unknown), _HI)


@rule("AM-UNKNOWN-DELTA")
def test_a_delta_without_a_type_changes_nothing(check: Check) -> None:
    typeless = [
        delta(0, {"text": "X"}),
        delta(0, {"type": None, "text": "Y"}),
        delta(0, {"type": "", "text": "Z"}),
    ]
    expect_fold(check, _hi(inside=typeless), _HI)


_COMPACTION: JSONObject = {
    "type": "compaction",
    "content": "Earlier turns, summarised.",
    "x_meta": {"tokens": 120},
}


@rule("AM-UNKNOWN-BLOCK")
def test_an_unknown_block_is_kept_as_sent_at_its_index(check: Check) -> None:
    # AQ21: litellm drops it and merges the text blocks around it
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "Before."),
        block_stop(0),
        block_start(1, _COMPACTION),
        block_stop(1),
        text_start(2),
        text_delta(2, "After."),
        block_stop(2),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(
        check, events, message(text("Before."), _COMPACTION, text("After."), stop_reason="end_turn")
    )


@rule("AM-UNKNOWN-BLOCK")
def test_deltas_to_an_unknown_block_leave_it_as_sent(check: Check) -> None:
    # AQ21: LangChain leaks the event's `index` key into the block
    events = [
        message_start(),
        block_start(0, _COMPACTION),
        text_delta(0, "X"),
        delta(0, {"type": "compaction_delta", "content": "more"}),
        block_stop(0),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(_COMPACTION, stop_reason="end_turn"))


@rule("AM-UNKNOWN-KEYS")
def test_bedrock_invocation_metrics_on_message_stop_change_nothing(check: Check) -> None:
    # AQ22: the InvokeModelWithResponseStream metrics ride on message_stop
    metrics = {
        "inputTokenCount": 25,
        "outputTokenCount": 3,
        "invocationLatency": 812,
        "firstByteLatency": 301,
    }
    events = [*_hi()[:-1], stop(**{"amazon-bedrock-invocationMetrics": metrics})]
    expect_fold(check, events, _HI)


@rule("AM-UNKNOWN-KEYS")
def test_unknown_keys_on_event_envelopes_never_reach_the_message(check: Check) -> None:
    extra: JSONObject = {"request_id": "req_011", "x_trace": {"span": 7}}
    events = [{**event, **extra} for event in _hi()]
    expect_fold(check, events, _HI)


@rule("AM-UNKNOWN-KEYS")
def test_unknown_keys_inside_the_message_and_a_content_block_are_kept(check: Check) -> None:
    events = [
        message_start(x_trace={"span": 7}),
        text_start(0, "", x_meta={"lang": "en"}),
        text_delta(0, "Hi"),
        block_stop(0),
        message_delta("end_turn", None),
        stop(),
    ]
    expected = message(
        text("Hi", x_meta={"lang": "en"}), stop_reason="end_turn", x_trace={"span": 7}
    )
    expect_fold(check, events, expected)


@rule("AM-UNKNOWN-KEYS", "AM-CITATIONS-APPEND")
def test_unknown_keys_inside_a_citation_are_kept(check: Check) -> None:
    cited = {
        "type": "char_location",
        "cited_text": "Hi",
        "document_index": 0,
        "start_char_index": 0,
        "end_char_index": 2,
        "x_score": 0.9,
    }
    events = [
        message_start(),
        text_start(0),
        citation_delta(0, cited),
        text_delta(0, "Hi"),
        block_stop(0),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(
        check,
        events,
        message(text("Hi", citations=[cited]), stop_reason="end_turn"),
        rules=("AM-UNKNOWN-KEYS",),
    )


@rule("AM-ROB-WRONG-TYPE")
def test_a_null_delta_changes_nothing_and_never_raises(check: Check) -> None:
    # AQ29: `delta: null` crashes every library probed
    nulls = [delta(0, None), {"type": "message_delta", "delta": None}]
    expect_fold(check, _hi(inside=nulls, before_stop=nulls), _HI)


@rule("AM-ROB-WRONG-TYPE")
def test_a_text_of_the_wrong_type_is_treated_as_absent(check: Check) -> None:
    wrong = [text_delta(0, None), text_delta(0, 7), text_delta(0, ["x"]), text_delta(0, {})]
    expect_fold(check, _hi(inside=wrong), _HI)


@rule("AM-ROB-WRONG-TYPE")
def test_an_index_of_the_wrong_type_is_treated_as_absent(check: Check) -> None:
    # "1" is a string, true is not 1, 1.5 is not integral: none of them names block 1
    wrong: list[JSONObject] = []
    for index in ("1", True, 1.5, None, [1], {"i": 1}):
        wrong += [text_start(index, "ghost"), text_delta(index, "lost")]
    events = _hi(after_block=wrong)
    expect_fold(check, events, _HI)


@rule("AM-ROB-WRONG-TYPE")
def test_a_delta_of_the_wrong_type_on_a_block_never_raises(check: Check) -> None:
    wrong = [
        delta(0, "text_delta"),
        delta(0, ["x"]),
        delta(0, 5),
        {"type": "message_delta", "delta": "end_turn", "usage": "lots"},
    ]
    expect_fold(check, _hi(inside=wrong), _HI)


@rule("AM-ROB-WRONG-TYPE")
def test_events_whose_fields_all_have_the_wrong_type_never_raise(check: Check) -> None:
    # what such an event opens is not specified; that it never raises is
    odd: list[JSONObject] = [
        {"type": "content_block_start", "index": 4, "content_block": None},
        {"type": "content_block_start", "index": 5, "content_block": "text"},
        {"type": "content_block_start"},
        {"type": "content_block_delta"},
        {"type": "content_block_stop", "index": "0"},
        {"type": "message_delta"},
        {"type": "message_start", "message": 5},
    ]
    events = _hi(after_block=odd)
    received = check.fold(events)  # a whole fold: no accumulator needed (any target)
    content = received.get("content")
    first = content[0] if isinstance(content, list) and content else None
    found = check.item_differences(
        {"first": text("Hi!"), "stop_reason": "end_turn"},
        {"first": first, "stop_reason": received.get("stop_reason")},
    )
    if found:
        raise check.fail(
            "events with fields of the wrong type changed the valid stream's "
            "first block or stop reason",
            events=events,
            differences=found,
            received=received,
        )


@pytest.mark.parametrize(
    "value", [["a", "json", "array"], [{"type": "ping"}], "message_stop", 42, 1.5, None, True]
)
@rule("AM-ROB-NOT-OBJECT")
def test_an_event_that_is_not_a_json_object_is_refused(check: Check, value: JSON) -> None:
    check.refuses(value)


@rule("AM-ROB-NOT-OBJECT")
def test_a_refused_event_leaves_the_fold_unchanged(check: Check) -> None:
    needs(check, "lifecycle", "read the fold after a refusal")
    acc = check.accumulator()
    for event in text_stream("Hi", "!")[:-1]:
        acc.add(event)
        refuses_as_array(check, acc, event)
    acc.add(stop())
    expect_message(
        check, acc.response(), _HI, events=list(acc.events), when="the fold after refused events"
    )
