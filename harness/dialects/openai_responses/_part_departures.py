"""The part-level departures of an OpenAI Responses event stream from OpenAI's own shape,
each named after its rule, and how to undo them (`refold.dialects.openai_responses.ablation`
holds the registry; `_item_departures` the item-level ones).

In OpenAI's own shape an item's parts open at content indexes 0, 1, 2 ... in that order
(summary parts at summary indexes likewise), each part's annotations arrive at
annotation indexes 0, 1, 2 ..., and a delta adds text. A stream whose parts arrive in
another order, whose annotation index is past the end, or that sends an empty delta
(documented, RQ23, and still a variation a target may trip on) departs in the way one
rule decides. So does a stream whose function calls share a `call_id` (the API makes
each call's unique; the schema does not say so, and a target keying calls by it trips).
Plain JSON in, plain JSON out; the input is never mutated.
"""

from __future__ import annotations

import copy

from refold.reference import JSON
from refold.verdicts.dropping import without

from .._reading import index_of
from ._detectors import call_id_of
from ._stream_departures import is_terminal

__all__ = ["distinct_call_ids", "empty_args_deltas", "empty_text_deltas", "parts_in_order"]

_PART_KEYS = ("content_index", "summary_index")


def _part_key(event: JSON) -> tuple[int, str] | None:
    """(output_index, the part index key) of an event of a part; None for another."""
    if not isinstance(event, dict) or is_terminal(event):
        return None
    index = index_of(event.get("output_index"))
    key = next((k for k in _PART_KEYS if index_of(event.get(k)) is not None), None)
    return (index, key) if index is not None and key is not None else None


def _annotations_dense(stream: list[JSON]) -> list[JSON]:
    """Each annotation index past the end of its part's annotations sent as the end (the
    reference appends it there either way)."""
    counts: dict[tuple[int | None, int | None], int] = {}
    result: list[JSON] = []
    for event in stream:
        changed = copy.deepcopy(event)
        if isinstance(changed, dict) and changed.get("type") == (
            "response.output_text.annotation.added"
        ):
            at = index_of(changed.get("annotation_index"))
            part = (index_of(changed.get("output_index")), index_of(changed.get("content_index")))
            count = counts.get(part, 0)
            if at is not None and at > count:
                changed["annotation_index"] = at = count
            if at is not None:
                counts[part] = max(count, at + 1)
        result.append(changed)
    return result


def parts_in_order(stream: list[JSON]) -> list[JSON]:
    """RS-CONTENT-INDEX: each item's part events moved so that its parts arrive in
    ascending index order (each part's own events in their order, every other event where
    it was), and each annotation index past the end sent as the end: parts and annotations
    are keyed by their index, so the fold is unchanged."""
    slots: dict[tuple[int, str], list[int]] = {}
    for position, event in enumerate(stream):
        key = _part_key(event)
        if key is not None:
            slots.setdefault(key, []).append(position)
    result = [copy.deepcopy(event) for event in stream]
    for (_, name), positions in slots.items():

        def part_index(position: int, name: str = name) -> int:
            event = stream[position]
            assert isinstance(event, dict)  # a part's event
            return index_of(event.get(name)) or 0

        for target, source in zip(positions, sorted(positions, key=part_index), strict=True):
            result[target] = copy.deepcopy(stream[source])
    return _annotations_dense(result)


def _without_empty(stream: list[JSON], kind: str) -> list[JSON]:
    return without(
        stream, lambda e: isinstance(e, dict) and e.get("type") == kind and e.get("delta") == ""
    )


def empty_text_deltas(stream: list[JSON]) -> list[JSON]:
    """RS-TEXT-JOIN: the empty `response.output_text.delta` events left out (joining
    adds nothing for them)."""
    return _without_empty(stream, "response.output_text.delta")


def empty_args_deltas(stream: list[JSON]) -> list[JSON]:
    """RS-ARGS-JOIN: the empty `response.function_call_arguments.delta` events left out
    (joining adds nothing for them)."""
    return _without_empty(stream, "response.function_call_arguments.delta")


def _renamed(stream: list[JSON]) -> dict[str, list[tuple[int, str]]]:
    """Per call_id sent by calls at several output indexes, (index, the call_id it gets)
    in index order: the first keeps it, each later one has its index appended."""
    indexes: dict[str, set[int]] = {}
    for event in stream:
        if isinstance(event, dict) and (call_id := call_id_of(event.get("item"))) is not None:
            index = index_of(event.get("output_index"))
            if index is not None:
                indexes.setdefault(call_id, set()).add(index)
    return {
        call_id: [
            (index, call_id if n == 0 else f"{call_id}_{index}")
            for n, index in enumerate(sorted(found))
        ]
        for call_id, found in indexes.items()
        if len(found) > 1
    }


def distinct_call_ids(stream: list[JSON]) -> list[JSON]:
    """RS-CALL-IDS: function calls at several output indexes that share a `call_id` each
    given one of their own (in their events by index, and in every response's output the
    n-th call sending it as the n-th index): the fold changes only at those calls'
    `call_id`."""
    renamed = _renamed(stream)
    result = [copy.deepcopy(event) for event in stream]
    for event in result if renamed else []:
        if not isinstance(event, dict):
            continue
        item, response = event.get("item"), event.get("response")
        names = renamed.get(call_id_of(item) or "")
        if names and isinstance(item, dict):
            item["call_id"] = dict(names).get(index_of(event.get("output_index")) or 0, "")
        outputs = response.get("output") if isinstance(response, dict) else None
        seen: dict[str, int] = {}
        for output in outputs if isinstance(outputs, list) else []:
            names = renamed.get(call_id_of(output) or "")
            if names and isinstance(output, dict):
                nth = seen[output["call_id"]] = seen.get(output["call_id"], -1) + 1
                output["call_id"] = names[min(nth, len(names) - 1)][1]
    return result
