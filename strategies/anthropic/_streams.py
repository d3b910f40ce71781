"""Damaged or arbitrary event streams, for differential checks against the reference fold.

`event_streams(features=...)` starts from a lossless split of a drawn message and damages
it, each kind of damage behind its own branch (so a failure shrinks to the one that
matters) and only where the target claims the rules that decide it (`SHAPES`). The
expectation of such a stream is whatever the reference fold builds from it. Every
stream keeps its first `message_start` intact and first among the events that count, so
the fold always has a Message to read (an error before it is left to the lifecycle
strategies: the Message would not exist).
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Unpack

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from .._damage import Damage
from .._streams import Claimed, StreamParts, damaged_streams
from .._streams import round_trips as _round_trips
from .._text import BOOLEANS, below, identities
from ._blocks import delta_event, start_event
from ._claims import CLAIMS, allows
from ._messages import TOOL_TYPES, messages
from ._splits import event_splits

__all__ = ["event_streams", "round_trips"]


_ERRORS: st.SearchStrategy[JSONObject] = st.sampled_from(
    [
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
        {
            "type": "error",
            "error": {"type": "api_error", "message": "x", "details": None},
            "request_id": "req_1",
        },
        {"type": "error"},
    ]
)
_BLANK_REASONS = st.sampled_from([None, "", " ", 7])
_UNKNOWN_DELTAS: st.SearchStrategy[JSONObject] = st.sampled_from(
    [
        {"type": "compaction_delta", "content": "summary"},
        {"type": "x_delta", "text": "x"},
        {"text": "typeless"},
    ]
)
_MISMATCHED: tuple[tuple[frozenset[str], JSONObject], ...] = (
    (frozenset({"text"}), {"type": "text_delta", "text": "x"}),
    (frozenset({"tool_use"}), {"type": "input_json_delta", "partial_json": "{}"}),
    (frozenset({"thinking"}), {"type": "thinking_delta", "thinking": "x"}),
    (frozenset({"thinking"}), {"type": "signature_delta", "signature": "s"}),
    (
        frozenset({"citations"}),
        {"type": "citations_delta", "citation": {"type": "char_location", "cited_text": "c"}},
    ),
)
"""Deltas to send to a block of another type, with the features their type belongs to:
only the claimed ones are sent."""
_CUT_INPUTS = st.sampled_from(['{"a": "cut', "{", '{"a": 1} x', "[1, 2]", '"text"'])


def _start_position(events: list[JSONObject]) -> int:
    return next(i for i, item in enumerate(events) if item.get("type") == "message_start")


def _block_positions(events: list[JSONObject]) -> list[int]:
    return [
        i for i, item in enumerate(events) if str(item.get("type", "")).startswith("content_block_")
    ]


def _indexes(events: list[JSONObject]) -> list[int]:
    return sorted(
        {
            item["index"]
            for item in events
            if item.get("type") == "content_block_start" and isinstance(item.get("index"), int)
        }
    )


def _stop_position(events: list[JSONObject]) -> int:
    """Where the first message_stop is (the end when there is none): inserting there or
    before keeps every new event one the fold reads (AM-LIFE-AFTER-STOP is lifecycle's)."""
    return next(
        (i for i, item in enumerate(events) if item.get("type") == "message_stop"), len(events)
    )


def _insert_after_start(draw: st.DrawFn, events: list[JSONObject], new: JSONObject) -> None:
    position = draw(st.integers(_start_position(events) + 1, _stop_position(events)))
    events.insert(position, new)


def _truncated(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """AM-LIFE-TRUNCATED: the stream ends early (message_start kept)."""
    return events[: draw(st.integers(_start_position(events) + 1, len(events) - 1))]


def _error(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """AM-LIFE-ERROR: an error after message_start, maybe with events after it."""
    _insert_after_start(draw, events, copy.deepcopy(draw(_ERRORS)))
    return events


def _interleaved(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """AM-DELTA-ROUTE: events of different blocks swapped, each block's own order kept."""
    for _ in range(draw(st.integers(1, 4))):
        pairs = [
            p
            for p in _block_positions(events)
            if p + 1 < len(events)
            and str(events[p + 1].get("type", "")).startswith("content_block_")
            and events[p + 1].get("index") != events[p].get("index")
        ]
        if not pairs:
            break
        p = draw(st.sampled_from(pairs))
        events[p], events[p + 1] = events[p + 1], events[p]
    return events


def _gaps(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """AM-BLOCK-ORDER: indexes from some block on shifted up, leaving a gap."""
    indexes = _indexes(events)
    if indexes:
        first, shift = draw(st.sampled_from(indexes)), draw(st.integers(1, 3))
        for item in events:
            if isinstance(item.get("index"), int) and item["index"] >= first:
                item["index"] += shift
    return events


def _repeated_starts(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """AM-BLOCK-REOPEN and AM-START-ONCE: a second start for a block or the message."""
    indexes = _indexes(events)
    if bool(indexes) and draw(BOOLEANS):
        again = start_event(draw(st.sampled_from(indexes)), {"type": "text", "text": "again"})
    else:
        again = {
            "type": "message_start",
            "message": {"id": "msg_again", "content": [], "model": "other", "stop_reason": "x"},
        }
    _insert_after_start(draw, events, again)
    return events


def _mismatched(features: Collection[str]) -> Damage:
    """AM-DELTA-MATCH (and AM-DELTA-ROUTE on an index without a block)."""
    pool = st.sampled_from([delta for needs, delta in _MISMATCHED if needs <= set(features)])

    def damage(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
        index = draw(st.sampled_from([*_indexes(events), 50]))
        _insert_after_start(draw, events, delta_event(index, copy.deepcopy(draw(pool))))
        return events

    return damage


def _blank_reasons(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """AM-STOP-REASON: a later message_delta with a blank stop_reason."""
    reason: JSON = draw(_BLANK_REASONS)
    _insert_after_start(
        draw,
        events,
        {"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": "ignored"}},
    )
    return events


def _invalid_input(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """AM-TOOL-INVALID: a tool block's joined input that is not one JSON object."""
    tools = [
        item["index"]
        for item in events
        if item.get("type") == "content_block_start"
        and item["content_block"].get("type") in TOOL_TYPES
    ]
    if tools:
        index = draw(st.sampled_from(tools))
        events[:] = [
            item
            for item in events
            if not (item.get("type") == "content_block_delta" and item.get("index") == index)
        ]
        position = next(
            i
            for i, item in enumerate(events)
            if item.get("index") == index and item.get("type") == "content_block_start"
        )
        piece = {"type": "input_json_delta", "partial_json": draw(_CUT_INPUTS)}
        events.insert(position + 1, delta_event(index, piece))
    return events


def _reordered(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """AM-BEFORE-START, AM-DELTA-ROUTE: one event moved anywhere before message_stop
    (message_start, message_stop and error events stay, so the first message_start
    still counts)."""
    movable = [
        i
        for i, item in enumerate(events[: _stop_position(events)])
        if item.get("type") not in ("message_start", "error")
    ]
    if movable:
        moved = events.pop(draw(st.sampled_from(movable)))
        events.insert(draw(below(_stop_position(events) + 1)), moved)
    return events


def _unknown_deltas(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """AM-UNKNOWN-DELTA: a delta of an unknown (or no) type for an existing block."""
    indexes = _indexes(events) or [0]
    delta = copy.deepcopy(draw(_UNKNOWN_DELTAS))
    _insert_after_start(draw, events, delta_event(draw(st.sampled_from(indexes)), delta))
    return events


def _resent_signatures(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """AM-THINK-SIGNATURE: a thinking block's signature_delta preceded by another one (AQ10:
    the page sends one; LangChain concatenates two, litellm splits the block); the last
    one is the block's signature."""
    signed = [
        n
        for n, item in enumerate(events)
        if item.get("type") == "content_block_delta"
        and isinstance(item.get("delta"), dict)
        and item["delta"].get("type") == "signature_delta"
    ]
    if signed:
        at = draw(st.sampled_from(signed))
        earlier = copy.deepcopy(events[at])
        earlier["delta"]["signature"] = draw(identities("Sig"))
        events.insert(at, earlier)
    return events


_WRONG_TYPES: tuple[JSONObject, ...] = (
    {"type": "message_start", "message": None},
    {"type": "content_block_start", "index": "0", "content_block": {"type": "text"}},
    {"type": "content_block_start", "index": -1, "content_block": {"type": "text"}},
    {"type": "content_block_start", "index": 0, "content_block": None},
    {"type": "content_block_delta", "index": 0, "delta": None},
    {"type": "content_block_delta", "index": 0.0, "delta": {"type": "text_delta", "text": None}},
    {"type": "content_block_delta", "index": 1.5, "delta": {"type": "text_delta", "text": "x"}},
    {"type": "message_delta", "delta": None},
    {"type": "message_delta", "delta": {"stop_reason": 3, "stop_sequence": 4}},
    {"type": 7},
)
_WRONG_USAGE: tuple[JSONObject, ...] = (
    {"type": "message_delta", "delta": None, "usage": {"output_tokens": "12"}},
    {
        "type": "message_delta",
        "delta": {"stop_reason": None},
        "usage": {"input_tokens": None, "server_tool_use": 3, "service_tier": 1},
    },
    {"type": "message_delta", "delta": {}, "usage": None},
)


def _wrong_types(pool: tuple[JSONObject, ...]) -> Damage:
    """AM-ROB-WRONG-TYPE: fields of the wrong JSON type, each treated as absent."""
    choices = st.sampled_from(pool)

    def damage(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
        for _ in range(draw(st.integers(1, 2))):
            events.insert(draw(below(_stop_position(events) + 1)), copy.deepcopy(draw(choices)))
        return events

    return damage


def _damages(features: Collection[str]) -> list[tuple[str, Damage]]:
    return [
        ("truncated", _truncated),
        ("error event", _error),
        ("blank stop reasons", _blank_reasons),
        ("interleaved blocks", _interleaved),
        ("index gaps", _gaps),
        ("repeated starts", _repeated_starts),
        ("mismatched deltas", _mismatched(features)),
        ("invalid tool input", _invalid_input),
        ("unknown deltas", _unknown_deltas),
        ("reordered events", _reordered),
        ("wrong types", _wrong_types(_WRONG_TYPES)),
        ("wrong usage types", _wrong_types(_WRONG_USAGE)),
        ("resent signatures", _resent_signatures),
    ]


_PARTS = StreamParts(
    CLAIMS,
    results=lambda features, chosen: messages(features=features, documented=set(chosen) == {1}),
    splits=lambda message, chosen, features: event_splits(
        message, families=chosen, late_events=allows("events after message_stop", features)
    ),
    damages=_damages,
)


def event_streams(**claimed: Unpack[Claimed]) -> st.SearchStrategy[list[JSONObject]]:
    """Draw an event stream that need not fold to any known message: a lossless split
    of a drawn message (from `families`, default every family the `features` are judged
    on), damaged in the ways the claimed features decide (truncated, an error, blank stop
    reasons, interleaved blocks, index gaps, repeated starts, mismatched, unknown or
    misplaced deltas, invalid tool input, wrong types, a signature sent twice). Its
    expectation is the reference fold of the same events."""
    return damaged_streams(_PARTS, **claimed)


def round_trips(
    **claimed: Unpack[Claimed],
) -> st.SearchStrategy[tuple[JSONObject, list[JSONObject]]]:
    """Draw `(message, events)`: a message of the claimed `features` and a lossless
    split of it from `families` (default: every family the features are judged on).

    The plain family alone (`families={1}`) draws only documented streams: every event
    valid under the SDK's types, in the streaming page's order (so a message with usage
    whenever `usage` is claimed, and no unknown block); the simplest draw of any family
    is one of them."""
    return _round_trips(_PARTS, **claimed)
