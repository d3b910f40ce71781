"""The item-level departures of an OpenAI Responses event stream from OpenAI's own shape,
each named after its rule, how to undo them, and how to tell they are absent
(`refold.dialects.openai_responses.ablation` holds the registry;
`refold.dialects.openai_responses._stream_departures` the
stream-level ones).

In OpenAI's own shape every item is announced (`output_item.added`) before its events, at
output indexes 0, 1, 2 ... in that order, once; its events carry the id it was announced
with and its own output_index, fit its type, and open its parts at content indexes 0, 1,
2 ... in order. A stream that does otherwise departs in the way one rule decides. An item
event is routed as the reference routes it (RS-ROUTE: an announced id wins, else its
output_index). Plain JSON in, plain JSON out; the input is never mutated.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from refold.reference import JSON, JSONObject, RefoldError, non_blank
from refold.reference.responses import fold
from refold.reference.responses._items import placeholder
from refold.reference.responses._routing import ITEM_EVENTS

from .._reading import index_of
from ._stream_departures import is_terminal

__all__ = [
    "DELTA_EVENTS",
    "content_index",
    "dense_indexes",
    "done_as_deltas",
    "fitting",
    "items_done",
    "key_output_index",
    "kind_match",
    "orphan",
    "output_order",
    "readd",
    "refusals_as_text",
    "route",
    "steady_ids",
    "terminal_output",
    "walk",
]

_ADDED = "response.output_item.added"
_DONE = "response.output_item.done"
_LISTS = {"content_index": "content", "summary_index": "summary"}


def _type(event: JSON) -> object:
    return event.get("type") if isinstance(event, dict) else None


def _id(value: object) -> str | None:
    return non_blank(value)


def _named_id(event: JSONObject) -> str | None:
    """The item id an item event names: `item.id` for a done item, else `item_id`."""
    if event.get("type") == _DONE:
        item = event.get("item")
        return _id(item.get("id")) if isinstance(item, dict) else None
    return _id(event.get("item_id"))


def _is_item_event(event: JSON) -> bool:
    """An event the reference routes to an item other than output_item.added."""
    if not isinstance(event, dict):
        return False
    if event.get("type") == _DONE:
        return isinstance(event.get("item"), dict)
    return event.get("type") in ITEM_EVENTS


def walk(
    stream: list[JSON],
) -> Iterator[tuple[int, JSONObject, int | None, dict[str, int], dict[int, JSONObject]]]:
    """(position, item event, the index the reference routes it to, the announced ids by
    then, the latest announced item per index by then), for every item event and added."""
    announced: dict[str, int] = {}
    items: dict[int, JSONObject] = {}
    for position, event in enumerate(stream):
        if not isinstance(event, dict):
            continue
        if event.get("type") == _ADDED and isinstance(event.get("item"), dict):
            index = index_of(event.get("output_index"))
            yield position, event, index, dict(announced), dict(items)
            if index is not None:
                items[index] = event["item"]
                if (item_id := _id(event["item"].get("id"))) is not None:
                    announced[item_id] = index
        elif _is_item_event(event):
            named = _named_id(event)
            index = announced.get(named) if named is not None else None
            if index is None:
                index = index_of(event.get("output_index"))
            yield position, event, index, dict(announced), dict(items)


def _implied(event: JSONObject) -> str:
    """The type of the placeholder an orphan event opens (RS-ORPHAN)."""
    implied = ITEM_EVENTS[str(event["type"])].implied
    part = event.get("part")
    reasoning = isinstance(part, dict) and part.get("type") == "reasoning_text"
    return implied or ("reasoning" if reasoning else "message")


def orphan(stream: list[JSON]) -> list[JSON]:
    """RS-ORPHAN: every item announced before its first event: its later output_item.added
    moved there, else one written with the done item, or with the placeholder the event
    opens (type implied by the event, id from its item_id, status in_progress)."""
    inserts: dict[int, JSONObject] = {}
    moved: set[int] = set()
    opened: set[int] = set()
    walked = list(walk(stream))
    for position, event, index, _, _ in walked:
        if index is None or index in opened:
            continue
        opened.add(index)
        if event["type"] == _ADDED:
            continue
        later = next(
            (p for p, e, i, _, _ in walked if p > position and i == index and e["type"] == _ADDED),
            None,
        )
        if later is not None:
            moved.add(later)
            inserts[position] = {**copy.deepcopy(stream[later]), "output_index": index}
        else:
            item = (
                event["item"]
                if event["type"] == _DONE
                else placeholder(_implied(event), event.get("item_id"))
            )
            inserts[position] = {"type": _ADDED, "output_index": index, "item": copy.deepcopy(item)}
    result: list[JSON] = []
    for position, event in enumerate(stream):
        if position in inserts:
            result.append(inserts[position])
        if position not in moved:
            result.append(copy.deepcopy(event))
    return result


def steady_ids(stream: list[JSON]) -> list[JSON]:
    """RS-KEY-OUTPUT-INDEX: every item event routed by its output_index carries the id the
    item there was announced with (`item_id`; a done item's `id`), or none when it was
    announced without one."""
    result = [copy.deepcopy(event) for event in stream]  # no object shared by two
    for position, event, index, announced, items in walk(stream):
        if event["type"] == _ADDED or index is None or _named_id(event) in announced:
            continue
        if index not in items:
            continue  # an orphan's (RS-ORPHAN)
        held = _id(items[index].get("id"))
        changed = result[position]
        assert isinstance(changed, dict)  # a copy of an item event
        holder, key = (changed["item"], "id") if event["type"] == _DONE else (changed, "item_id")
        if held is not None:
            holder[key] = held
        else:
            holder.pop(key, None)  # the item was announced without one (RS-CALL-IDS)
    return result


def dense_indexes(stream: list[JSON]) -> list[JSON]:
    """RS-KEY-OUTPUT-INDEX: the output indexes renumbered 0, 1, 2 ... in their order, so
    no index is skipped (the output closes the gaps up: only the events change)."""
    indexes = (index_of(e.get("output_index")) for e in stream if isinstance(e, dict))
    used = sorted({index for index in indexes if index is not None})
    ranks = {index: rank for rank, index in enumerate(used)}
    result: list[JSON] = []
    for event in stream:  # each event copied alone: a stream may hold one object twice
        index = index_of(event.get("output_index")) if isinstance(event, dict) else None
        if isinstance(event, dict) and index is not None and index != ranks[index]:
            result.append({**copy.deepcopy(event), "output_index": ranks[index]})
        else:
            result.append(copy.deepcopy(event))
    return result


def key_output_index(stream: list[JSON]) -> list[JSON]:
    """RS-KEY-OUTPUT-INDEX: ids as announced (`steady_ids`) at indexes without gaps
    (`dense_indexes`): a fold keying items by id or by position folds it alike."""
    return dense_indexes(steady_ids(stream))


def route(stream: list[JSON]) -> list[JSON]:
    """RS-ROUTE: an item event whose id names an item announced at another index carries
    that index as its output_index."""
    result = [copy.deepcopy(event) for event in stream]  # no object shared by two
    for position, event, index, announced, _ in walk(stream):
        named = _named_id(event)
        if event["type"] != _ADDED and named in announced and event.get("output_index") != index:
            changed = result[position]
            assert isinstance(changed, dict)  # a copy of an item event
            changed["output_index"] = index
    return result


def readd(stream: list[JSON]) -> list[JSON]:
    """RS-READD: an index announced once: the latest output_item.added there sent in place
    of the first (its item takes over the identity fields, RS-READD), the later ones
    dropped."""
    firsts: dict[int, int] = {}
    latest: dict[int, JSONObject] = {}
    for position, event, index, _, _ in walk(stream):
        if event["type"] == _ADDED and index is not None:
            firsts.setdefault(index, position)
            latest[index] = event
    result: list[JSON] = []
    for position, event in enumerate(stream):
        index = index_of(event.get("output_index")) if isinstance(event, dict) else None
        if (
            _type(event) == _ADDED
            and index in firsts
            and isinstance(event, dict)
            and (isinstance(event.get("item"), dict))
        ):
            if firsts[index] == position:
                result.append(copy.deepcopy(latest[index]))
            continue
        result.append(copy.deepcopy(event))
    return result


def output_order(stream: list[JSON]) -> list[JSON]:
    """RS-OUTPUT-ORDER: the item events moved so that items arrive one after the other in
    ascending output_index order (each item's own events in their order); every other
    event stays where it was."""
    routed = [(position, index) for position, _, index, _, _ in walk(stream) if index is not None]
    ordered = sorted(routed, key=lambda pair: pair[1])  # stable: each item's own order
    result = [copy.deepcopy(event) for event in stream]  # no object shared by two
    for (position, _), (source, _) in zip(routed, ordered, strict=True):
        result[position] = copy.deepcopy(stream[source])
    return result


def _mismatched(stream: list[JSON]) -> set[int]:
    """The positions of the item events routed to an item whose type they do not fit
    (hosted-tool status events fit nothing and change nothing: never a departure)."""
    types: dict[int, Any] = {}
    found: set[int] = set()
    for position, event, index, _, _ in walk(stream):
        if index is None:
            continue
        kind = event["type"]
        if kind == _ADDED:
            types[index] = event["item"].get("type")  # RS-READD: the latest type is the item's
            continue
        if kind == _DONE:
            types.setdefault(index, event["item"].get("type"))
            continue
        fits = ITEM_EVENTS[kind].kinds
        held = types.setdefault(index, _implied(event))
        if fits and held not in fits:
            found.add(position)
    return found


def kind_match(stream: list[JSON]) -> bool:
    """RS-KIND-MATCH: whether an item event is routed to an item whose type it does not
    fit."""
    return bool(_mismatched(stream))


def fitting(stream: list[JSON]) -> list[JSON]:
    """RS-KIND-MATCH: the item events routed to an item whose type they do not fit left
    out (a text delta at a function call, content parts at a hosted-tool item): the
    reference applies none of them."""
    dropped = _mismatched(stream)
    return [copy.deepcopy(e) for position, e in enumerate(stream) if position not in dropped]


def content_index(stream: list[JSON]) -> bool:
    """RS-CONTENT-INDEX: whether an item's parts arrive at indexes other than 0, 1, 2 ...
    in that order (events of a part before an earlier one's, or gaps)."""
    seen: dict[tuple[int, str], list[int]] = {}
    for _, event, index, _, _ in walk(stream):
        for key, name in _LISTS.items():
            part = index_of(event.get(key))
            if index is None or part is None:
                continue
            found = seen.setdefault((index, name), [])
            if not found or found[-1] != part:
                found.append(part)
    return any(found != list(range(len(found))) for found in seen.values())


def _as_text(part: JSON) -> JSON:
    if not (isinstance(part, dict) and part.get("type") == "refusal"):
        return copy.deepcopy(part)
    text = {k: copy.deepcopy(v) for k, v in part.items() if k != "refusal"}
    text["type"] = "output_text"
    if "refusal" in part:
        text["text"] = copy.deepcopy(part["refusal"])
    return text


def _item_as_text(item: JSON) -> JSON:
    if not isinstance(item, dict) or not isinstance(item.get("content"), list):
        return copy.deepcopy(item)
    return {**copy.deepcopy(item), "content": [_as_text(part) for part in item["content"]]}


_AS_TEXT = {
    "response.refusal.delta": "response.output_text.delta",
    "response.refusal.done": "response.output_text.done",
}


def refusals_as_text(stream: list[JSON]) -> list[JSON]:
    """RS-REFUSAL: every refusal part sent as an output_text part of the same text (its
    events, the parts of its added and done items and of the responses): the fold changes
    only at the refusal parts' places (`type`, `refusal`, `text`)."""
    result: list[JSON] = []
    for event in stream:
        changed = copy.deepcopy(event)
        if isinstance(changed, dict):
            kind = changed.get("type")
            if kind in _AS_TEXT:
                changed["type"] = _AS_TEXT[str(kind)]
                if kind == "response.refusal.done" and "refusal" in changed:
                    changed["text"] = changed.pop("refusal")
            if "part" in changed:
                changed["part"] = _as_text(changed["part"])
            if "item" in changed:
                changed["item"] = _item_as_text(changed["item"])
            response = changed.get("response")
            if isinstance(response, dict) and isinstance(response.get("output"), list):
                response["output"] = [_item_as_text(item) for item in response["output"]]
        result.append(changed)
    return result


_DONE_VALUES: dict[str, tuple[str, str, str | None]] = {
    "response.output_text.done": ("response.output_text.delta", "text", "content_index"),
    "response.refusal.done": ("response.refusal.delta", "refusal", "content_index"),
    "response.reasoning_text.done": ("response.reasoning_text.delta", "text", "content_index"),
    "response.reasoning_summary_text.done": (
        "response.reasoning_summary_text.delta",
        "text",
        "summary_index",
    ),
    "response.function_call_arguments.done": (
        "response.function_call_arguments.delta",
        "arguments",
        None,
    ),
}
DELTA_EVENTS = frozenset(delta for delta, _, _ in _DONE_VALUES.values())
"""The events that join a `delta` string into a value a `.done` event may replace."""
"""A `.done` event that sets a value (RS-DONE-REPLACES), the delta event joining into that
value, the done event's value key and the index key of the part (None: the call's)."""


def done_as_deltas(stream: list[JSON]) -> list[JSON]:
    """RS-DONE-REPLACES: a value a `.done` event sets also arrives as deltas before it (the
    rest of it after the deltas already sent, when they are its beginning), so the deltas
    alone build what the done event sets."""
    joined: dict[tuple[object, ...], str] = {}
    inserts: dict[int, JSONObject] = {}
    deltas = {delta: done for done, (delta, _, _) in _DONE_VALUES.items()}
    for position, event, index, _, _ in walk(stream):
        kind = str(event["type"])
        if kind == _ADDED and isinstance(event["item"].get("arguments"), str):
            joined[(index, "response.function_call_arguments.done", None)] = event["item"][
                "arguments"
            ]
        family = deltas.get(kind, kind)
        if family not in _DONE_VALUES:
            continue
        delta_type, key, index_key = _DONE_VALUES[family]
        slot = (index, family, index_of(event.get(index_key)) if index_key else None)
        so_far = joined.get(slot, "")
        if kind == delta_type:
            joined[slot] = (
                so_far + event["delta"] if isinstance(event.get("delta"), str) else so_far
            )
            continue
        value = event.get(key)
        if isinstance(value, str) and value != so_far and value.startswith(so_far):
            inserts[position] = {
                **{k: copy.deepcopy(v) for k, v in event.items() if k not in (key, "type")},
                "type": delta_type,
                "delta": value[len(so_far) :],
            }
            joined[slot] = value
    result: list[JSON] = []
    for position, event in enumerate(stream):
        if position in inserts:
            result.append(inserts[position])
        result.append(copy.deepcopy(event))
    return result


def items_done(stream: list[JSON]) -> list[JSON]:
    """RS-RECOVER-FROM-DELTAS: every streamed item that never got `output_item.done` (one
    announced, or opened by an orphan event, RS-ORPHAN) gets one before the first terminal
    event (at the end without one), carrying the item as the reference recovers it from
    its deltas, with RS-RECOVER-STATUS's status (split family 4 sends no `.done` event at
    all)."""
    opened: set[int] = set()
    done: set[int] = set()
    for _, event, index, _, _ in walk(stream):
        if index is not None:
            (done if event["type"] == _DONE else opened).add(index)
    open_ = sorted(opened - done)
    recovered = _recovered_output(stream) if open_ else None
    order = sorted(opened | done)
    if recovered is None or len(recovered) != len(order):
        return copy.deepcopy(stream)  # none open, or not one item per streamed index
    dones: list[JSON] = [
        {"type": _DONE, "output_index": index, "item": copy.deepcopy(recovered[order.index(index)])}
        for index in open_
    ]
    first = next((n for n, event in enumerate(stream) if is_terminal(event)), len(stream))
    return [*copy.deepcopy(stream[:first]), *dones, *copy.deepcopy(stream[first:])]


def terminal_output(stream: list[JSON]) -> list[JSON]:
    """RS-OUTPUT-RECOVER: every terminal event whose `output` is absent or null sends the
    items the reference recovers from the stream as its `output`, so the output is the
    terminal's whole (split family 2; an SDK iterating the output raises on null, while
    `[]` is a list it reads as sent: what it makes of that is a difference)."""
    recovered = _recovered_output(stream)
    if recovered is None:
        return copy.deepcopy(stream)  # the reference refuses it: nothing to hand over
    result: list[JSON] = []
    for event in stream:
        copied = copy.deepcopy(event)
        if is_terminal(copied) and isinstance(copied, dict):
            response = copied["response"]
            if response.get("output") is None:
                response["output"] = copy.deepcopy(recovered)
        result.append(copied)
    return result


def _recovered_output(stream: list[JSON]) -> list[JSON] | None:
    """The streamed items as the reference recovers them (every terminal's `output` left
    out, so RS-OUTPUT-RECOVER builds the output from the stream), or None."""
    bare = [
        {**event, "response": {k: v for k, v in event["response"].items() if k != "output"}}
        if is_terminal(event)
        else event
        for event in stream
    ]
    try:
        output = fold(copy.deepcopy(bare)).get("output")
    except RefoldError:
        return None
    return output if isinstance(output, list) else None
