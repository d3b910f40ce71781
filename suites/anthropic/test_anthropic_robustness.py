"""Robustness (feature `robustness`): whatever a JSON object holds, the fold goes on; what
is not a JSON object is refused and changes nothing.

Every property compares the target with itself: a lossless stream against the same stream
with pings, unknown events, deltas or envelope keys added, or with fields of the wrong JSON
type (against the stream without those fields). A fault in some other rule folds both sides
alike, so these fail only when what the robustness rules say cannot matter does.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.run.checks import Check
from refold.run.marks import rule
from refold.strategies.anthropic import families_for, round_trips

from .._json_values import json_objects, json_values, non_objects
from ._wrong_types import wrong_typed_streams

_KNOWN_EVENTS = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
        "error",
    }
)
_KNOWN_DELTAS = frozenset(
    {"text_delta", "citations_delta", "input_json_delta", "thinking_delta", "signature_delta"}
)
_READ_FIELDS: dict[str, frozenset[str]] = {
    "message_start": frozenset({"message"}),
    "content_block_start": frozenset({"index", "content_block"}),
    "content_block_delta": frozenset({"index", "delta"}),
    "content_block_stop": frozenset({"index"}),
    "message_delta": frozenset({"delta", "usage"}),
    "error": frozenset({"error"}),
}
"""The envelope keys the fold reads, by event type; every other key is unknown there."""
_ENVELOPE_KEYS = st.sampled_from(
    [
        "request_id",
        "amazon-bedrock-invocationMetrics",
        "x_trace",
        "usage",
        "message",
        "delta",
        "index",
        "content_block",
        "stop_reason",
        "text",
        "content",
    ]
)
"""Unknown envelope keys, several named like fields the fold reads on other events."""
_NAMES = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)
_UNKNOWN_TYPES: st.SearchStrategy[JSON] = _NAMES.filter(
    lambda name: name not in _KNOWN_EVENTS
) | st.sampled_from(["", "   ", None, 7, True, ["ping"], {"type": "message_stop"}])
_UNKNOWN_DELTA_TYPES: st.SearchStrategy[JSON] = _NAMES.filter(
    lambda name: name not in _KNOWN_DELTAS
) | st.sampled_from(["compaction_delta", "", " ", None, 3])
_LOOKALIKES: st.SearchStrategy[JSON] = st.sampled_from(
    [
        {"input_tokens": 99, "output_tokens": 99},
        {"type": "text_delta", "text": "x"},
        {"id": "msg_other", "content": [{"type": "text", "text": "x"}], "stop_reason": "refusal"},
        {"type": "text", "text": "x"},
        {"stop_reason": "max_tokens"},
        "x",
        0,
        1,
        [],
    ]
)
"""Values that mean something where the fold reads them: usage, a delta, a message, a
block, a stop reason."""
_PAYLOADS = st.dictionaries(
    _ENVELOPE_KEYS | _NAMES, _LOOKALIKES | json_values(max_leaves=4), max_size=3
)
_KNOWN_DELTA_FIELDS: list[JSONObject] = [
    {"text": "x"},
    {"partial_json": '{"a": 1}'},
    {"thinking": "t"},
    {"signature": "sig"},
    {"citation": {"type": "char_location", "cited_text": "c"}},
    {"content": "summary"},
]
_DELTA_PAYLOADS: st.SearchStrategy[JSONObject] = st.one_of(
    st.sampled_from(_KNOWN_DELTA_FIELDS),
    st.dictionaries(_NAMES, json_values(max_leaves=3), max_size=2),
)
"""What an unknown delta carries: often the field of a known delta type."""


def _stream(check: Check, data: st.DataObject) -> list[JSONObject]:
    """A lossless stream of the claimed features, without family 8's own noise (the
    properties add theirs)."""
    claimed = check.target.features
    families = families_for(claimed) - {8}
    _, events = data.draw(round_trips(features=claimed, families=families), label="stream")
    return events


def _stop_position(events: list[JSONObject]) -> int:
    return next(
        (i for i, item in enumerate(events) if item.get("type") == "message_stop"), len(events)
    )


def _insert(
    data: st.DataObject, events: list[JSONObject], new: st.SearchStrategy[JSONObject]
) -> list[JSONObject]:
    """`events` with one to three drawn events inserted anywhere up to message_stop
    (before message_start included; after it is AM-LIFE-AFTER-STOP's business)."""
    changed = copy.deepcopy(events)
    for item in data.draw(st.lists(new, min_size=1, max_size=3), label="inserted"):
        changed.insert(data.draw(st.integers(0, _stop_position(changed))), item)
    return changed


def _folds_alike(check: Check, events: list[JSON], baseline: list[JSON], what: str) -> None:
    """Fail unless `events` fold as `baseline` does, both through the target."""
    __tracebackhide__ = True
    note(f"baseline: {json.dumps(baseline, ensure_ascii=False)}")
    expected, received = check.fold(baseline), check.fold(events)
    found = check.differences(expected, received)
    if found:
        raise check.fail(
            f"the fold differs from the target's own fold of {what}",
            events=events,
            differences=found,
            expected=expected,
            received=received,
        )


@rule("AM-ROB-WRONG-TYPE")
@given(data=st.data())
def test_a_field_of_the_wrong_type_folds_as_if_absent(check: Check, data: st.DataObject) -> None:
    damaged, cleaned = data.draw(
        wrong_typed_streams(features=check.target.features), label="streams"
    )
    _folds_alike(check, damaged, cleaned, "the same events without their wrong-typed fields")


@rule("AM-ROB-WRONG-TYPE")
@given(data=st.data(), junk=st.lists(json_objects(), min_size=1, max_size=3))
def test_any_json_object_as_an_event_never_makes_the_fold_raise(
    check: Check, data: st.DataObject, junk: list[JSONObject]
) -> None:
    events = _stream(check, data)
    # typed like the events the fold reads, so their fields reach it
    typed = [
        {**item, "type": data.draw(st.sampled_from(sorted(_KNOWN_EVENTS - {"error"})))}
        if data.draw(st.booleans())
        else item
        for item in junk
    ]
    start = events[0:1]
    check.fold([*start, *typed, *events])


@rule("AM-PING")
@given(data=st.data())
def test_pings_anywhere_change_nothing(check: Check, data: st.DataObject) -> None:
    events = _stream(check, data)
    ping = st.just({"type": "ping"}) | st.builds(lambda extra: {**extra, "type": "ping"}, _PAYLOADS)
    _folds_alike(check, _insert(data, events, ping), events, "the same events without pings")


@rule("AM-UNKNOWN-EVENT")
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


def _indexes(events: list[JSONObject]) -> list[int]:
    return sorted(
        {
            item["index"]
            for item in events
            if item.get("type") == "content_block_start" and isinstance(item.get("index"), int)
        }
    )


@rule("AM-UNKNOWN-DELTA")
@given(data=st.data())
def test_a_delta_of_an_unknown_type_changes_nothing(check: Check, data: st.DataObject) -> None:
    events = _stream(check, data)
    index = st.sampled_from(_indexes(events) or [0])
    delta = st.builds(
        lambda extra, kind: {**extra, "type": kind}, _DELTA_PAYLOADS, _UNKNOWN_DELTA_TYPES
    )
    unknown = st.builds(
        lambda i, d: {"type": "content_block_delta", "index": i, "delta": d}, index, delta
    )
    # after message_start: a delta before it is AM-BEFORE-START's business
    start = next(i for i, item in enumerate(events) if item.get("type") == "message_start")
    changed = events[: start + 1] + _insert(data, events[start + 1 :], unknown)
    _folds_alike(check, changed, events, "the same events without the unknown deltas")


@rule("AM-UNKNOWN-KEYS")
@given(data=st.data())
def test_unknown_keys_on_event_envelopes_change_nothing(check: Check, data: st.DataObject) -> None:
    events = _stream(check, data)
    changed = copy.deepcopy(events)
    for number in data.draw(
        st.sets(st.integers(0, len(changed) - 1), min_size=1), label="events given keys"
    ):
        item = changed[number]
        read = _READ_FIELDS.get(str(item.get("type")), frozenset())
        for key, value in data.draw(_PAYLOADS, label="keys").items():
            if key not in read and key != "type":
                item.setdefault(key, value)
    _folds_alike(check, changed, events, "the same events without unknown envelope keys")


@rule("AM-UNKNOWN-BLOCK")
@given(data=st.data())
def test_a_block_of_an_unknown_type_is_kept_as_sent_at_its_index(
    check: Check, data: st.DataObject
) -> None:
    claimed = check.target.features
    message, events = data.draw(
        round_trips(features=claimed, families=families_for(claimed)), label="case"
    )
    kind = "x_" + data.draw(_NAMES, label="type")  # never a type the fold knows
    block = {**data.draw(_PAYLOADS, label="block"), "type": kind}
    index = len(message["content"])
    start = next(i for i, item in enumerate(events) if item.get("type") == "message_start")
    position = data.draw(st.integers(start + 1, _stop_position(events)), label="at")
    new = [{"type": "content_block_start", "index": index, "content_block": block}]
    if data.draw(st.booleans()):
        new.append({"type": "content_block_stop", "index": index})
    changed = [*events[:position], *copy.deepcopy(new), *events[position:]]
    check.folds_to(changed, {**message, "content": [*message["content"], block]})


@rule("AM-ROB-NOT-OBJECT")
@given(value=non_objects())
def test_an_event_that_is_not_an_object_is_refused(check: Check, value: JSON) -> None:
    check.refuses(value)


@rule("AM-ROB-NOT-OBJECT")
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
    position = data.draw(st.integers(0, len(events)), label="refused at")
    accumulator = check.accumulator()
    for item in events[:position]:
        accumulator.add(item)
    before = accumulator.response() if position else None
    if accumulator.add_raw(value) is None:
        raise check.fail(
            f"add() accepted an event that is a {type(value).__name__}",
            events=[*events[:position], value],
        )
    if position:
        _unchanged(check, before, accumulator.response(), [*events[:position], value])
    elif accumulator.response_error() is None:
        raise check.fail(
            "after refusing the only event, response() returned a Message "
            "instead of the AM-LIFE-EMPTY error",
            events=[value],
        )
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
