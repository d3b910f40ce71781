"""Damaged event streams, for differential checks against the reference fold.

`event_streams(features=...)` starts from a lossless split of a drawn response and
damages it, each kind of damage behind its own branch (so a failure shrinks to the one
that matters) and only where the target claims the rules that decide it (`SHAPES`): the
spec's "Not lossless" shapes (a partial non-empty terminal output, `.done` values that
contradict earlier ones, reused `output_index` values), truncation, `error` events,
events after the terminal, orphan indexes, mismatched kinds, wrong types and null items.
The expectation of such a stream is whatever the reference fold builds from it.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Unpack

from hypothesis import strategies as st

from refold.reference import JSONObject

from .._damage import Damage
from .._streams import Claimed, StreamParts, damaged_streams
from .._streams import round_trips as _round_trips
from .._text import BOOLEANS, below, texts
from ._claims import CLAIMS, allows
from ._noise import is_terminal
from ._responses import responses
from ._splits import event_splits

__all__ = ["event_streams", "round_trips"]


_ERRORS: st.SearchStrategy[JSONObject] = st.sampled_from(
    [
        {
            "type": "error",
            "code": "server_error",
            "message": "The server had an error",
            "param": None,
        },
        {
            "type": "error",
            "error": {
                "type": "server_error",
                "code": "server_error",
                "message": "nested, as first-party providers send it",
            },
        },
        {"type": "error"},
    ]
)
_WRONG_TYPES: tuple[JSONObject, ...] = (
    {"type": "response.created", "response": None},
    {"type": "response.completed", "response": "done"},
    {
        "type": "response.output_item.added",
        "output_index": "0",
        "item": {"type": "message", "id": "msg_w", "role": "assistant", "content": []},
    },
    {
        "type": "response.output_item.added",
        "output_index": -1,
        "item": {"type": "message", "id": "msg_w", "role": "assistant", "content": []},
    },
    {"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": None},
    {"type": "response.output_text.delta", "output_index": 1.5, "content_index": 0, "delta": "x"},
    {"type": "response.output_text.delta", "output_index": 0.0, "content_index": "0", "delta": 7},
    {"type": 7},
)
_NULL_ITEMS: tuple[JSONObject, ...] = (
    {"type": "response.output_item.added", "output_index": 0, "item": None},
    {"type": "response.output_item.added", "output_index": 3, "item": None},
)
_MISMATCHED: tuple[tuple[str, JSONObject], ...] = (
    ("message items", {"type": "response.output_text.delta", "content_index": 0, "delta": "x"}),
    ("refusal parts", {"type": "response.refusal.delta", "content_index": 0, "delta": "r"}),
    ("function_call items", {"type": "response.function_call_arguments.delta", "delta": '{"x":'}),
    (
        "reasoning items",
        {"type": "response.reasoning_summary_text.delta", "summary_index": 0, "delta": "s"},
    ),
)
"""Content events to route to an item of another type (RS-KIND-MATCH), with the shape
whose feature they belong to: only the claimed ones are sent."""
_LATE: tuple[JSONObject, ...] = (
    {"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "late"},
    {
        "type": "response.output_item.added",
        "output_index": 9,
        "item": {
            "type": "message",
            "id": "msg_late",
            "status": "in_progress",
            "role": "assistant",
            "content": [],
        },
    },
    {
        "type": "response.in_progress",
        "response": {"id": "resp_late", "status": "in_progress", "output": []},
    },
)
"""Events after the terminal, each one that would change something if folded in."""


def _terminal_position(events: list[JSONObject]) -> int:
    return next((i for i, item in enumerate(events) if is_terminal(item)), len(events))


def _insert_before_terminal(draw: st.DrawFn, events: list[JSONObject], new: JSONObject) -> None:
    events.insert(draw(st.integers(1, _terminal_position(events))), new)


def _indexes(events: list[JSONObject], kind: str | None = None) -> list[int]:
    return sorted(
        {
            item["output_index"]
            for item in events
            if item.get("type") in ("response.output_item.added", "response.output_item.done")
            and type(item.get("output_index")) is int
            and isinstance(item.get("item"), dict)
            and (kind is None or item["item"].get("type") == kind)
        }
    )


def _partial_terminal(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """Not lossless: the terminal output non-empty but missing items (bifrost #1985)."""
    kept: list[int] | None = None
    for item in events:
        body = item.get("response") if is_terminal(item) else None
        output = body.get("output") if isinstance(body, dict) else None
        if isinstance(output, list) and len(output) >= 2:
            if kept is None:  # the same items left out of every terminal event
                kept = sorted(
                    draw(
                        st.lists(
                            below(len(output)), min_size=1, max_size=len(output) - 1, unique=True
                        )
                    )
                )
            item["response"]["output"] = [output[i] for i in kept if i < len(output)]
    return events


def _contradicting(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """Not lossless: a second `.done` whose value contradicts the first (RQ22)."""
    dones = [
        i
        for i, item in enumerate(events[: _terminal_position(events)])
        if str(item.get("type", "")).endswith(".done")
    ]
    if dones:
        position = draw(st.sampled_from(dones))
        again = copy.deepcopy(events[position])
        for field in ("text", "refusal", "arguments"):
            if isinstance(again.get(field), str):
                again[field] += draw(texts(min_size=1, max_size=3))
        if isinstance(again.get("item"), dict):
            again["item"]["status"] = "incomplete"
        events.insert(draw(st.integers(position + 1, _terminal_position(events))), again)
    return events


def _collisions(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """Not lossless: a later item's events reuse an earlier item's `output_index` (RQ13;
    RS-ROUTE then routes by item id)."""
    indexes = _indexes(events)
    if len(indexes) < 2:
        return events
    moved = draw(st.sampled_from(indexes[1:]))
    onto = draw(st.sampled_from([i for i in indexes if i < moved]))
    block = [item for item in events if item.get("output_index") == moved]
    for item in block:
        item["output_index"] = onto
    if draw(BOOLEANS):  # interleaved: the later item streamed inside the earlier one
        rest = [item for item in events if all(item is not b for b in block)]
        first = next(i for i, item in enumerate(rest) if item.get("output_index") == onto)
        at = draw(st.integers(first + 1, _terminal_position(rest)))
        events = [*rest[:at], *block, *rest[at:]]
    return events


def _orphan_index(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """RS-ORPHAN: a content event for an index no item has."""
    stray = {
        "type": "response.output_text.delta",
        "output_index": 7,
        "content_index": 0,
        "item_id": "msg_stray",
        "delta": draw(texts(max_size=3)),
    }
    _insert_before_terminal(draw, events, stray)
    return events


def _mismatched(features: Collection[str]) -> Damage:
    pool = [copy.deepcopy(e) for shape, e in _MISMATCHED if allows(shape, features)]

    def damage(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
        index = draw(st.sampled_from([*_indexes(events), 0]))
        new = {**copy.deepcopy(draw(st.sampled_from(pool))), "output_index": index}
        _insert_before_terminal(draw, events, new)
        return events

    return damage


def _error(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """RS-ERROR-EVENT: an `error` event anywhere before the terminal."""
    _insert_before_terminal(draw, events, copy.deepcopy(draw(_ERRORS)))
    return events


def _truncated(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """LIFE-RS-SNAPSHOT: the stream ends before its terminal event."""
    return events[: draw(st.integers(1, _terminal_position(events)))]


def _late(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
    """LIFE-RS-AFTER: events after the terminal event."""
    late = draw(st.lists(st.sampled_from(_LATE), min_size=1, max_size=3))
    return events + copy.deepcopy(late)


def _inserted(pool: tuple[JSONObject, ...]) -> Damage:
    """RS-WRONG-TYPE, RS-NULL-ITEM: one or two events from `pool` before the terminal."""
    choices = st.sampled_from(pool)

    def damage(draw: st.DrawFn, events: list[JSONObject]) -> list[JSONObject]:
        for _ in range(draw(st.integers(1, 2))):
            _insert_before_terminal(draw, events, copy.deepcopy(draw(choices)))
        return events

    return damage


def _damages(features: Collection[str]) -> list[tuple[str, Damage]]:
    return [
        ("truncated", _truncated),
        ("error event", _error),
        ("partial terminal output", _partial_terminal),
        ("contradicting done values", _contradicting),
        ("index collisions", _collisions),
        ("orphan indexes", _orphan_index),
        ("mismatched kinds", _mismatched(features)),
        ("events after the terminal", _late),
        ("null items", _inserted(_NULL_ITEMS)),
        ("wrong types", _inserted(_WRONG_TYPES)),
    ]


_PARTS = StreamParts(
    CLAIMS,
    results=lambda features, chosen: responses(
        features=features, bare_calls=5 in chosen, shared_call_ids=5 in chosen
    ),
    splits=lambda response, chosen, features: event_splits(
        response, families=chosen, features=features
    ),
    damages=_damages,
)


def event_streams(**claimed: Unpack[Claimed]) -> st.SearchStrategy[list[JSONObject]]:
    """Draw an event stream that need not fold to any known response: a lossless split
    of a drawn response (from `families`, default every family the `features` are judged
    on), damaged in the ways the claimed features decide (truncated, an `error` event, a
    partial terminal output, contradicting `.done` values, reused output indexes, orphan
    indexes, mismatched kinds, events after the terminal, null items, wrong types). Its
    expectation is the reference fold of the same events. The first event is kept."""
    return damaged_streams(_PARTS, **claimed)


def round_trips(
    **claimed: Unpack[Claimed],
) -> st.SearchStrategy[tuple[JSONObject, list[JSONObject]]]:
    """Draw `(response, events)`: a response of the claimed `features` and a lossless
    split of it from `families` (default: every family the features are judged on)."""
    return _round_trips(_PARTS, **claimed)
