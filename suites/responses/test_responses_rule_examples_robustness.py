"""Rule examples: robustness (RS-UNKNOWN-KEYS, RS-KEEPALIVE, RS-WRONG-TYPE, RS-NOT-OBJECT,
RS-NULL-ITEM): what the fold skips, keeps, and refuses.

Noise inside an item shows only in a streamed item, so most streams here are `_hi`: a
message built from deltas alone under a terminal with `output: []` (marked with the
RS-OUTPUT-RECOVER, RS-RECOVER-FROM-DELTAS and RS-RECOVER-STATUS it leans on)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from refold.reference import JSON, JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from .._expect import expect_refusals_change_nothing
from ._events import (
    completed,
    created,
    in_progress,
    item_added,
    item_done,
    keepalive,
    message,
    part_added,
    response,
    terminal,
    text_delta,
    text_done,
    text_part,
    text_stream,
)
from ._expect import expect_fold

_RECOVERED = ("RS-OUTPUT-RECOVER", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS")
_HI = response(message(text_part("Hi!")))
"""What `_hi` folds into, whatever noise is added to it."""


def _hi(
    *,
    before: Sequence[JSONObject] = (),
    inside: Sequence[JSONObject] = (),
    after: Sequence[JSONObject] = (),
) -> list[JSONObject]:
    """A message built from deltas, "Hi" and "!", with extra events at three places."""
    return [
        created(),
        *before,
        item_added(0, message(status="in_progress")),
        part_added(0),
        text_delta(0, "Hi"),
        *inside,
        text_delta(0, "!"),
        *after,
        completed(),
    ]


@rule("RS-KEEPALIVE", *_RECOVERED)
def test_keepalive_events_anywhere_change_nothing(check: Check) -> None:
    # RQ24: openai-node knows `keepalive`; a fold that throws on it loses the answer
    events = [
        keepalive(),
        *_hi(before=[keepalive()], inside=[keepalive(), keepalive()], after=[keepalive()]),
    ]
    expect_fold(check, events, _HI)


@rule("RS-KEEPALIVE", *_RECOVERED)
def test_unknown_event_types_that_look_like_known_ones_change_nothing(check: Check) -> None:
    # RQ24: openai-node throws "Unhandled response stream event"; a fold must dispatch on
    # `type`, not on the keys an event happens to carry
    lookalikes: list[JSONObject] = [
        {
            "type": "response.output_text.delta.v2",
            "output_index": 0,
            "content_index": 0,
            "item_id": "msg_01",
            "delta": "X",
        },
        {
            "type": "response.output_item.replaced",
            "output_index": 0,
            "item": message(text_part("ghost")),
        },
        {"type": "response.x_future", "response": response(message(text_part("other")))},
        {"type": "", "output_index": 0, "delta": "X"},
        {"output_index": 0, "content_index": 0, "delta": "X"},
    ]
    expect_fold(check, _hi(before=lookalikes, inside=lookalikes, after=lookalikes), _HI)


@rule("RS-KEEPALIVE", "RS-TERMINAL-BASE")
def test_an_unknown_event_carrying_a_response_finishes_nothing_and_fills_nothing(
    check: Check,
) -> None:
    other = response(status="cancelled", model="gpt-other", service_tier="flex")
    events = text_stream("Hi!")
    events[-1:-1] = [
        {"type": "response.cancelled", "response": other},
        {"type": "response.done", "response": other},
    ]
    expect_fold(check, events, _HI)


@rule("RS-UNKNOWN-KEYS")
def test_obfuscation_and_vendor_keys_on_openais_own_stream_change_nothing(check: Check) -> None:
    # RQ15: OpenAI pads every delta with `obfuscation` by default; gateways add keys
    events = text_stream("Hi", " there")
    for event in events:
        event["x_vendor_trace"] = {"id": 7}
        if str(event["type"]).endswith(".delta"):
            event["obfuscation"] = "qW3x"
    expect_fold(check, events, response(message(text_part("Hi there"))))


@rule("RS-UNKNOWN-KEYS", *_RECOVERED)
def test_obfuscation_and_vendor_keys_on_events_change_nothing(check: Check) -> None:
    # RQ15: `obfuscation` padding is on every delta by default
    events = _hi()
    for event in events:
        event.update(obfuscation="qW3x", x_vendor_trace={"id": 7}, logprobs=[])
    expect_fold(check, events, _HI)


@rule("RS-UNKNOWN-KEYS", *_RECOVERED)
def test_unknown_keys_named_like_fields_the_fold_reads_change_nothing(check: Check) -> None:
    named = {
        "text": "X",
        "arguments": "{}",
        "part": text_part("X"),
        "annotation_index": 0,
        "usage": {"input_tokens": 99},
        "error": {"code": "x"},
        "status": "failed",
    }
    events = _hi()
    for event in events[2:-1]:
        event.update({k: v for k, v in named.items() if k not in event})
    expect_fold(check, events, _HI)


@rule("RS-UNKNOWN-KEYS", *_RECOVERED)
def test_logprobs_on_text_deltas_change_nothing(check: Check) -> None:
    logprobs = [{"token": "Hi", "logprob": -0.01, "top_logprobs": []}]
    events = _hi()
    for event in events:
        if event["type"] == "response.output_text.delta":
            event["logprobs"] = logprobs
    expect_fold(check, events, _HI)


_NOT_STRINGS: list[JSON] = [None, 7, True, ["x"], {"text": "x"}]


@rule("RS-WRONG-TYPE", *_RECOVERED)
@pytest.mark.parametrize("delta", _NOT_STRINGS)
def test_a_delta_that_is_not_a_string_adds_nothing(check: Check, delta: JSON) -> None:
    expect_fold(check, _hi(inside=[text_delta(0, delta)]), _HI)


@rule("RS-WRONG-TYPE", *_RECOVERED)
@pytest.mark.parametrize("index", ["0", True, -1, 0.5, [0], {"i": 0}, None])
def test_an_event_whose_output_index_is_not_an_index_and_names_no_item_changes_nothing(
    check: Check, index: JSON
) -> None:
    stray = [
        text_delta(index, "X", item_id=None),
        part_added(index, item_id=None),
        item_added(index, message(text_part("ghost"), id="msg_ghost")),
    ]
    expect_fold(check, _hi(inside=stray, after=stray), _HI)


@rule("RS-WRONG-TYPE", *_RECOVERED)
def test_integral_numbers_are_indexes(check: Check) -> None:
    # as in chat-fold: 1.0 is 1
    events = [
        created(),
        item_added(0.0, message(status="in_progress")),
        part_added(0, content_index=0.0),
        text_delta(0.0, "Hi", content_index=0),
        text_delta(0, "!", content_index=0.0),
        completed(),
    ]
    expect_fold(check, events, _HI)


@rule("RS-WRONG-TYPE", "RS-TERMINAL-BASE")
@pytest.mark.parametrize("body", [None, "completed", [], 3, True])
def test_a_lifecycle_or_terminal_response_that_is_not_an_object_changes_nothing(
    check: Check, body: JSON
) -> None:
    events = text_stream("Hi!")
    events[1:1] = [{"type": "response.in_progress", "response": body}]
    events[-1:-1] = [
        terminal("completed", body),
        terminal("incomplete", body),
        terminal("failed", body),
        {"type": "response.created", "response": body},
    ]
    expect_fold(check, events, _HI)


@rule("RS-WRONG-TYPE", "RS-OUTPUT-RECOVER")
@pytest.mark.parametrize("output", ["Hi!", 0, {"0": "x"}, True])
def test_a_terminal_output_that_is_not_a_list_is_absent(check: Check, output: JSON) -> None:
    done = message(text_part("Hi!"))
    events = [
        created(),
        item_added(0, message(status="in_progress")),
        item_done(0, done),
        terminal("completed", response(output=output)),
    ]
    expected = response(done)
    expect_fold(check, events, expected)


@rule("RS-WRONG-TYPE", *_RECOVERED)
def test_a_wrong_typed_done_item_or_done_text_changes_nothing(check: Check) -> None:
    odd: list[JSONObject] = [
        text_done(0, 7),
        {"type": "response.output_item.done", "output_index": 0, "item": "done"},
    ]
    expect_fold(check, _hi(inside=odd, after=odd), _HI)


@rule("RS-NOT-OBJECT")
@pytest.mark.parametrize(
    "value", [None, "response.completed", 3, 1.5, True, [], [{"type": "keepalive"}]]
)
def test_an_event_that_is_not_a_json_object_is_refused(check: Check, value: JSON) -> None:
    check.refuses(value)


@rule("RS-NOT-OBJECT")
def test_a_refused_event_leaves_the_fold_unchanged(check: Check) -> None:
    expect_refusals_change_nothing(check, text_stream("Hi!"), _HI)


@rule("RS-NULL-ITEM", *_RECOVERED)
@pytest.mark.parametrize("item", [None, "", "  ", [], 0, False])
def test_an_added_event_with_a_blank_item_adds_nothing(check: Check, item: JSON) -> None:
    # RQ6: openai-python crashed with AttributeError on `item: null` (#3125)
    events = _hi(before=[item_added(0, item)], after=[item_added(1, item)])
    expect_fold(check, events, _HI)


@rule("RS-NULL-ITEM", "RS-OUTPUT-RECOVER", "RS-OUTPUT-ORDER")
def test_a_blank_item_keeps_its_index_free_for_the_real_one(check: Check) -> None:
    # #3131's review: skipping leaves the output shorter than the declared indexes
    first, second = message(text_part("A"), id="msg_a"), message(text_part("B"), id="msg_b")
    events = [
        created(),
        in_progress(),
        item_added(0, None),
        item_added(1, None),
        item_added(1, message(id="msg_b", status="in_progress")),
        item_done(1, second),
        item_added(0, message(id="msg_a", status="in_progress")),
        item_done(0, first),
        completed(),
    ]
    expect_fold(check, events, response(first, second))


@rule("RS-NULL-ITEM", "RS-OUTPUT-RECOVER")
def test_an_added_event_without_an_item_key_adds_nothing(check: Check) -> None:
    done = message(text_part("Hi!"))
    events = [
        created(),
        {"type": "response.output_item.added", "output_index": 1},
        item_added(0, message(status="in_progress")),
        item_done(0, done),
        completed(),
    ]
    expect_fold(check, events, response(done))
