"""Robustness (feature `robustness`): whatever a JSON object holds, the fold goes on; what
is not a JSON object is refused and changes nothing.

Every property compares the target with itself: a lossless stream against the same stream
with keepalives, unknown events, blank items or unknown keys added, or with fields of the
wrong JSON type (against the stream without those fields). A fault in some other rule
folds both sides alike, so these fail only when what the robustness rules say cannot
matter does. The streams are of every family the claimed features are judged on, so
terminals without output (whose items the stream decides) are among them; the added
events go before the first terminal event (after it is LIFE-RS-AFTER's business).
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from .._json_values import json_objects, json_values, non_objects
from ._draws import small_streams
from ._wrong_types import FIELDS, wrong_typed_streams

_FOLD = frozenset({"text", "tool_calls", "refusal", "reasoning", "annotations", "usage"})
_TERMINALS = frozenset({"response.completed", "response.incomplete", "response.failed"})
_KNOWN_EVENTS = sorted(
    {
        "response.created",
        "response.queued",
        "response.in_progress",
        *_TERMINALS,
        "response.output_item.added",
        "response.output_item.done",
        "response.content_part.added",
        "response.content_part.done",
        "response.output_text.delta",
        "response.output_text.done",
        "response.output_text.annotation.added",
        "response.refusal.delta",
        "response.refusal.done",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.reasoning_summary_text.delta",
        "response.reasoning_text.delta",
    }
)
_NAMES = st.text("abcdefghijklmnopqrstuvwxyz_.", min_size=1, max_size=16)
_UNKNOWN_TYPES: st.SearchStrategy[JSON] = (
    _NAMES.map(lambda name: f"response.x_{name}")
    | _NAMES.map(lambda name: f"x.{name}")
    | st.sampled_from(
        [
            "",
            "   ",
            None,
            7,
            True,
            ["keepalive"],
            {"type": "response.completed"},
            "response.output_text.delta.v2",
            "response.output_item.replaced",
            "response.cancelled",
            "response.done",
            "done",
        ]
    )
)
_LOOKALIKES: st.SearchStrategy[JSON] = st.sampled_from(
    [
        0,
        1,
        "x",
        "msg_1",
        "fc_1",
        {"type": "message", "id": "msg_x", "role": "assistant", "content": []},
        {"type": "output_text", "text": "x", "annotations": []},
        {"id": "resp_x", "status": "failed", "output": [], "usage": {"total_tokens": 9}},
        {"input_tokens": 99, "output_tokens": 99, "total_tokens": 198},
    ]
)
"""Values that mean something where the fold reads them: an index, a delta, an id, an
item, a part, a response, usage."""
_PAYLOADS = st.dictionaries(
    st.sampled_from(sorted(FIELDS)) | _NAMES, _LOOKALIKES | json_values(max_leaves=4), max_size=4
)
_UNKNOWN_KEYS = st.dictionaries(
    st.sampled_from(
        [
            "obfuscation",
            "logprobs",
            "x_vendor",
            "usage",
            "status",
            "error",
            "id",
            "model",
            "output",
            "name",
            "call_id",
        ]
    )
    | _NAMES,
    _LOOKALIKES | json_values(max_leaves=3),
    min_size=1,
    max_size=3,
)
"""Keys the fold reads on no event (`FIELDS` are the ones it reads), some named like
fields of a response or an item."""


def _stream(check: Check, data: st.DataObject) -> list[JSONObject]:
    """A lossless stream of the claimed fold features, of every family they are judged on
    (family 7 without robustness noise: the properties add theirs)."""
    events: list[JSONObject] = data.draw(
        small_streams(frozenset(check.target.features & _FOLD) | {"text"}), label="stream"
    )
    return events


def _terminal_position(events: list[JSONObject]) -> int:
    # a drawn unknown `type` may be any JSON value, a list included
    return next(
        (
            i
            for i, item in enumerate(events)
            if isinstance(item.get("type"), str) and item["type"] in _TERMINALS
        ),
        len(events),
    )


def _insert(
    data: st.DataObject, events: list[JSONObject], new: st.SearchStrategy[JSONObject]
) -> list[JSONObject]:
    """`events` with one to three drawn events inserted anywhere before the terminal."""
    changed = copy.deepcopy(events)
    for item in data.draw(st.lists(new, min_size=1, max_size=3), label="inserted"):
        changed.insert(data.draw(st.integers(0, _terminal_position(changed))), item)
    return changed


def _folds_alike(check: Check, events: list[JSON], baseline: list[JSON], what: str) -> None:
    """Fail unless `events` fold as `baseline` does, both through the target."""
    __tracebackhide__ = True
    expected, received = check.fold(baseline, ablate=True), check.fold(events, ablate=True)
    found = check.differences(expected, received)
    if found:
        raise check.fail(
            f"the fold differs from the target's own fold of {what}",
            events=events,
            differences=found,
            expected=expected,
            received=received,
        )


@rule("RS-WRONG-TYPE")
@given(data=st.data())
def test_a_field_of_the_wrong_type_folds_as_if_absent(check: Check, data: st.DataObject) -> None:
    damaged, cleaned = data.draw(
        wrong_typed_streams(features=check.target.features), label="streams"
    )
    _folds_alike(check, damaged, cleaned, "the same events without their wrong-typed fields")


@rule("RS-WRONG-TYPE")
@given(data=st.data(), junk=st.lists(json_objects(), min_size=1, max_size=3))
def test_any_json_object_as_an_event_never_makes_the_fold_raise(
    check: Check, data: st.DataObject, junk: list[JSONObject]
) -> None:
    events = _stream(check, data)
    # typed like the events the fold reads, so their fields reach it
    typed = [
        {**item, "type": data.draw(st.sampled_from(_KNOWN_EVENTS))}
        if data.draw(st.booleans())
        else item
        for item in junk
    ]
    check.fold([*events[:1], *typed, *events])


@rule("RS-KEEPALIVE")
@given(data=st.data())
def test_keepalives_anywhere_change_nothing(check: Check, data: st.DataObject) -> None:
    events = _stream(check, data)
    keepalive = st.just({"type": "keepalive"}) | st.builds(
        lambda extra: {**extra, "type": "keepalive"}, _PAYLOADS
    )
    _folds_alike(
        check, _insert(data, events, keepalive), events, "the same events without keepalives"
    )


@rule("RS-KEEPALIVE")
@given(data=st.data())
def test_an_event_of_an_unknown_or_blank_type_changes_nothing(
    check: Check, data: st.DataObject
) -> None:
    events = _stream(check, data)
    unknown = st.builds(lambda extra, kind: {**extra, "type": kind}, _PAYLOADS, _UNKNOWN_TYPES)
    untyped = _PAYLOADS.map(lambda extra: {k: v for k, v in extra.items() if k != "type"})
    _folds_alike(
        check,
        _insert(data, events, unknown | untyped),
        events,
        "the same events without the unknown ones",
    )


@rule("RS-UNKNOWN-KEYS")
@given(data=st.data())
def test_unknown_keys_on_events_change_nothing(check: Check, data: st.DataObject) -> None:
    # RQ15: `obfuscation` on every delta; vendor keys; `logprobs` on deltas
    events = _stream(check, data)
    changed = copy.deepcopy(events)
    for number in data.draw(
        st.sets(st.integers(0, len(changed) - 1), min_size=1), label="events given keys"
    ):
        for key, value in data.draw(_UNKNOWN_KEYS, label="keys").items():
            if key not in FIELDS and key != "type":
                changed[number].setdefault(key, value)
    _folds_alike(check, changed, events, "the same events without unknown keys")


_BLANK_ITEMS: st.SearchStrategy[JSON] = st.sampled_from([None, "", " ", [], 0, False, 1.5])


@rule("RS-NULL-ITEM")
@given(data=st.data())
def test_an_added_event_with_a_blank_item_changes_nothing(
    check: Check, data: st.DataObject
) -> None:
    # RQ6: `item: null` (openai-python #3125); the index stays free for the real item
    events = _stream(check, data)
    blank = st.builds(
        lambda index, item: {
            "type": "response.output_item.added",
            "output_index": index,
            "item": item,
        },
        st.integers(0, 4),
        _BLANK_ITEMS,
    )
    without = blank.map(lambda event: {k: v for k, v in event.items() if k != "item"})
    _folds_alike(
        check,
        _insert(data, events, blank | without),
        events,
        "the same events without the blank items",
    )


@rule("RS-NOT-OBJECT")
@given(value=non_objects())
def test_an_event_that_is_not_an_object_is_refused(check: Check, value: JSON) -> None:
    check.refuses(value)


@rule("RS-NOT-OBJECT")
@given(data=st.data(), value=non_objects())
def test_refusing_an_event_leaves_the_fold_unchanged(
    check: Check, data: st.DataObject, value: JSON
) -> None:
    if "lifecycle" not in check.target.features:
        pytest.skip(
            f"target {check.target.name} does not claim feature lifecycle, which "
            f"this test needs to read the fold before and after a refusal"
        )
    events = _stream(check, data)
    position = data.draw(st.integers(1, len(events)), label="refused at")
    accumulator = check.accumulator()
    for item in events[:position]:
        accumulator.add(item)
    before = accumulator.response()
    if accumulator.add_raw(value) is None:
        raise check.fail(
            f"add() accepted an event that is a {type(value).__name__}",
            events=[*events[:position], value],
        )
    _unchanged(check, before, accumulator.response(), [*events[:position], value])
    for item in events[position:]:
        accumulator.add(item)
    _unchanged(
        check,
        check.fold(events),
        accumulator.response(),
        [*events[:position], value, *events[position:]],
    )


def _unchanged(check: Check, expected: JSON, received: JSON, events: list[JSON]) -> None:
    __tracebackhide__ = True
    found = check.differences(expected, received)
    if found:
        raise check.fail(
            "refusing an event that is not an object changed the fold",
            events=events,
            differences=found,
            expected=expected,
            received=received,
        )
