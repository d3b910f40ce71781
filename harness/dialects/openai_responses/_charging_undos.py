"""Stream changes that undo one departure from OpenAI's own shape, for charging a crash
or a difference to the rule of the departure that caused it when the failure is raised
(`_charging`; the harness's ablation after the test, `refold.dialects.openai_responses.ablation`,
has its
own).

The terminal undos are the harness's ablation's
(`refold.dialects.openai_responses._stream_departures`:
`terminal_repeat` keeps only the last terminal event, RQ19 undone, RS-TERMINAL-REPEAT, the
reference folds it identically; `terminal_events` makes every terminal event a
`response.completed`, RS-TERMINAL-EVENTS, for crashes only). `steady_ids` gives every item
event the id its item was announced with (RQ7 undone: RS-KEY-OUTPUT-INDEX);
`announced_first` moves each item's `output_item.added` before its first event, or writes
one where none was sent (RQ5 undone: RS-ORPHAN). A target that crashes on a stream and
folds the changed one crashed on that departure.
"""

from __future__ import annotations

import copy

from refold.reference import JSON, JSONObject

__all__ = ["announced_first", "departure_at", "steady_ids"]

_ADDED = "response.output_item.added"
_DONE = "response.output_item.done"
_CALL_EVENTS = ("response.function_call_arguments.",)
_REASONING_EVENTS = ("response.reasoning_",)


def _index(event: JSON) -> int | None:
    found = event.get("output_index") if isinstance(event, dict) else None
    return found if type(found) is int and found >= 0 else None


def _announced(events: list[JSON]) -> dict[int, JSON]:
    ids: dict[int, JSON] = {}
    for event in events:
        index = _index(event)
        if (
            index is not None
            and isinstance(event, dict)
            and event.get("type") == _ADDED
            and isinstance(event.get("item"), dict)
        ):
            ids.setdefault(index, event["item"].get("id"))
    return ids


def steady_ids(events: list[JSON]) -> list[JSON]:
    """The stream with each item event's `item_id` (and each done item's `id`) the id its
    index was first announced with."""
    ids, steady = _announced(events), copy.deepcopy(events)
    for event in steady:
        index = _index(event)
        if index is None or index not in ids or not isinstance(event, dict):
            continue
        if event.get("type") == _DONE and isinstance(event.get("item"), dict):
            event["item"]["id"] = ids[index]
        elif "item_id" in event:
            event["item_id"] = ids[index]
    return steady


def _placeholder(event: JSONObject) -> JSONObject:
    kind = str(event.get("type", ""))
    item: JSONObject
    if kind.startswith(_CALL_EVENTS):
        item = {"type": "function_call", "arguments": "", "call_id": "call_undo", "name": "undo"}
    elif kind.startswith(_REASONING_EVENTS):
        item = {"type": "reasoning", "summary": []}
    else:
        item = {"type": "message", "role": "assistant", "content": []}
    if isinstance(event.get("item_id"), str):
        item["id"] = event["item_id"]
    return {
        "type": _ADDED,
        "output_index": event.get("output_index"),
        "item": {**item, "status": "in_progress"},
    }


def announced_first(events: list[JSON]) -> list[JSON]:
    """The stream with every index's `output_item.added` before the index's first item
    event (moved there, or written from that event when none was sent)."""
    changed: list[JSON] = []
    opened: set[int] = set()
    later = {
        (_index(e)): e
        for e in reversed(events)
        if isinstance(e, dict)
        and e.get("type") == _ADDED
        and _index(e) is not None
        and isinstance(e.get("item"), dict)
    }
    for event in events:
        index = _index(event)
        if index is None or not isinstance(event, dict) or index in opened:
            if not (
                isinstance(event, dict)
                and event.get("type") == _ADDED
                and index in opened
                and later.get(index) is event
            ):
                changed.append(event)
            continue
        opened.add(index)
        if event.get("type") not in (_ADDED, _DONE):
            changed.append(later.get(index) or _placeholder(event))
        changed.append(event)
    return changed


def departure_at(event: JSON, earlier: list[JSON]) -> str | None:
    """The departure rule an item event shows after `earlier`: content for an index no
    item was announced at (RS-ORPHAN), an id other than the announced one
    (RS-KEY-OUTPUT-INDEX)."""
    index = _index(event)
    if index is None or not isinstance(event, dict) or event.get("type") == _ADDED:
        return None
    ids = _announced(earlier)
    if index not in ids:
        return "RS-ORPHAN"
    sent = (
        event["item"].get("id")
        if event.get("type") == _DONE and isinstance(event.get("item"), dict)
        else event.get("item_id")
    )
    return "RS-KEY-OUTPUT-INDEX" if sent is not None and sent != ids[index] else None
