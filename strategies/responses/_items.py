"""The events of one output item, by split family: each shape is a short function.

`item_events(draw, index, item, plan)` returns everything streamed for item `index`:
`output_item.added`, its content events, `output_item.done`. How is drawn per item
(`_Plan`): OpenAI's own shape (family 1: deltas split at any code point, then every
`.done`), `.done`-only (family 3), deltas-only (family 4: no `.done` of any kind), with
item ids on content events kept, rotated or left out (family 5), and content events
before the `output_item.added` or no `output_item.added` at all (family 6).
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from itertools import count

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from .._text import BOOLEANS, cut, escape_positions, pieces_of, scattered
from ._responses import HOSTED_TYPES

__all__ = ["ItemStyle", "item_events", "new_style", "recovered_status"]

_HOSTED_STEPS = {
    "web_search_call": ("in_progress", "searching", "completed"),
    "file_search_call": ("in_progress", "searching", "completed"),
    "code_interpreter_call": ("in_progress", "interpreting", "completed"),
    "image_generation_call": ("in_progress", "generating", "completed"),
    "mcp_call": ("in_progress", "completed"),
}
"""Each hosted-tool item's status events, in the order OpenAI sends them."""


def recovered_status(terminal_status: str) -> str:
    """RS-RECOVER-STATUS: what an unfinished item reads after the terminal event."""
    return "completed" if terminal_status == "completed" else "incomplete"


@dataclass(frozen=True)
class ItemStyle:
    """How the items of one stream may be streamed: the families drawn from, the status
    an unfinished item recovers to, and whether deltas-only items are possible (only
    when the terminal output is omitted: a whole terminal output would hide them)."""

    families: frozenset[int]
    recovers_to: str
    deltas_only: bool
    rotated: Iterator[int]


def new_style(families: Collection[int], recovers_to: str, *, deltas_only: bool) -> ItemStyle:
    return ItemStyle(frozenset(families), recovers_to, deltas_only, count())


def _can_stream_deltas_only(item: JSONObject) -> bool:
    """Family 4 needs an item whose status RS-RECOVER-STATUS can supply: one with a
    status key (an item without one would gain it)."""
    return "status" in item


def item_events(
    draw: st.DrawFn, index: int, item: JSONObject, style: ItemStyle
) -> list[JSONObject]:
    """The events of item `index`, whose fold (terminal output omitted) is `item`."""
    modes = ["plain"]
    if 3 in style.families:
        modes.append("done-only")
    if 4 in style.families and style.deltas_only and _can_stream_deltas_only(item):
        modes.append("deltas-only")
    mode = draw(st.sampled_from(modes))
    finished = mode != "deltas-only"
    added = _added_item(draw, item, style.recovers_to, finished=finished)
    content = _content_events(draw, item, added, mode)
    for position, event in enumerate(content):
        content[position] = {**event, "output_index": index}
    _route(draw, item, content, style)
    head: list[JSONObject] = [
        {"type": "response.output_item.added", "output_index": index, "item": added}
    ]
    tail: list[JSONObject] = []
    if finished:
        tail = [
            {
                "type": "response.output_item.done",
                "output_index": index,
                "item": copy.deepcopy(item),
            }
        ]
    return _orphaned(draw, head, content, tail, item, style, finished=finished)


def _added_item(
    draw: st.DrawFn, item: JSONObject, recovers_to: str, *, finished: bool
) -> JSONObject:
    """The `output_item.added` item: identity and an empty body, as OpenAI sends it; for
    a deltas-only item also everything no delta carries (RS-RECOVER-FROM-DELTAS)."""
    kind = item["type"]
    added = copy.deepcopy(item)
    if kind == "message":
        added["content"] = []
    elif kind == "function_call":
        added["arguments"] = ""
    elif kind == "reasoning":
        added["summary"] = []
        if "content" in item:
            added["content"] = []
        if finished and "encrypted_content" in item:
            keep = draw(st.integers(0, len(item["encrypted_content"])))
            added["encrypted_content"] = item["encrypted_content"][:keep]  # "may be incomplete"
    if "status" in item:
        final = item["status"]
        added["status"] = final if not finished and final != recovers_to else "in_progress"
    return added


def _content_events(
    draw: st.DrawFn, item: JSONObject, added: JSONObject, mode: str
) -> list[JSONObject]:
    kind = item["type"]
    if kind == "message":
        return [
            e
            for number, part in enumerate(item["content"])
            for e in _part_events(draw, number, part, mode)
        ]
    if kind == "function_call":
        return _argument_events(draw, item, mode)
    if kind == "reasoning":
        events = [
            e
            for number, part in enumerate(item["summary"])
            for e in _summary_events(draw, number, part, mode)
        ]
        return events + [
            e
            for number, part in enumerate(item.get("content", []))
            for e in _reasoning_text_events(draw, number, part, mode)
        ]
    if kind in HOSTED_TYPES:
        return _hosted_events(draw, kind)
    return []


def _pieces(draw: st.DrawFn, text: str, *, favour_escapes: bool = False) -> list[str]:
    """A text split at any code point, empty pieces allowed; `""` is no delta (what it
    shrinks to) or empty ones."""
    if not text and not draw(BOOLEANS):
        return []
    favour = escape_positions(text) if favour_escapes else []
    return [str(piece) for piece in pieces_of(text, cut(draw, len(text), favour=favour))]


def _part_events(draw: st.DrawFn, number: int, part: JSONObject, mode: str) -> list[JSONObject]:
    """One message part: added, deltas and annotations, the text (or refusal) done, the
    part done."""
    where: JSONObject = {"content_index": number}
    refusal = part["type"] == "refusal"
    field, prefix = ("refusal", "response.refusal") if refusal else ("text", "response.output_text")
    initial: JSONObject = {"type": part["type"], field: ""}
    logprobs: JSONObject = {} if refusal else {"logprobs": []}  # text events require it
    if not refusal:
        initial["annotations"] = []
        initial["logprobs"] = (
            copy.deepcopy(part["logprobs"])
            if (mode == "deltas-only" and "logprobs" in part)
            else []
        )
    events: list[JSONObject] = [{"type": "response.content_part.added", **where, "part": initial}]
    body: list[JSONObject] = []
    if mode != "done-only":
        body = [
            {"type": f"{prefix}.delta", **where, "delta": piece, **logprobs}
            for piece in _pieces(draw, part[field])
        ]
    notes = [] if refusal else _annotation_events(part, where)
    if notes and (mode != "done-only" or draw(BOOLEANS)):
        body = scattered(draw, body, notes)
    events += body
    if mode != "deltas-only":
        events += [
            {"type": f"{prefix}.done", **where, field: part[field], **logprobs},
            {"type": "response.content_part.done", **where, "part": copy.deepcopy(part)},
        ]
    return events


def _annotation_events(part: JSONObject, where: JSONObject) -> list[JSONObject]:
    return [
        {
            "type": "response.output_text.annotation.added",
            **where,
            "annotation_index": number,
            "annotation": copy.deepcopy(note),
        }
        for number, note in enumerate(part.get("annotations", []))
    ]


def _argument_events(draw: st.DrawFn, item: JSONObject, mode: str) -> list[JSONObject]:
    arguments = item["arguments"]
    events: list[JSONObject] = []
    if mode != "done-only":
        events = [
            {"type": "response.function_call_arguments.delta", "delta": piece}
            for piece in _pieces(draw, arguments, favour_escapes=True)
        ]
    if mode != "deltas-only":
        events.append(
            {
                "type": "response.function_call_arguments.done",
                "name": item["name"],
                "arguments": arguments,
            }
        )
    return events


def _summary_events(draw: st.DrawFn, number: int, part: JSONObject, mode: str) -> list[JSONObject]:
    where: JSONObject = {"summary_index": number}
    events: list[JSONObject] = [
        {
            "type": "response.reasoning_summary_part.added",
            **where,
            "part": {"type": "summary_text", "text": ""},
        }
    ]
    if mode != "done-only":
        events += [
            {"type": "response.reasoning_summary_text.delta", **where, "delta": piece}
            for piece in _pieces(draw, part["text"])
        ]
    if mode != "deltas-only":
        events += [
            {"type": "response.reasoning_summary_text.done", **where, "text": part["text"]},
            {"type": "response.reasoning_summary_part.done", **where, "part": copy.deepcopy(part)},
        ]
    return events


def _reasoning_text_events(
    draw: st.DrawFn, number: int, part: JSONObject, mode: str
) -> list[JSONObject]:
    where: JSONObject = {"content_index": number}
    events: list[JSONObject] = [
        {
            "type": "response.content_part.added",
            **where,
            "part": {"type": "reasoning_text", "text": ""},
        }
    ]
    if mode != "done-only":
        events += [
            {"type": "response.reasoning_text.delta", **where, "delta": piece}
            for piece in _pieces(draw, part["text"])
        ]
    if mode != "deltas-only":
        events += [
            {"type": "response.reasoning_text.done", **where, "text": part["text"]},
            {"type": "response.content_part.done", **where, "part": copy.deepcopy(part)},
        ]
    return events


def _hosted_events(draw: st.DrawFn, kind: str) -> list[JSONObject]:
    """Status events of a hosted-tool item (they change nothing, RS-HOSTED-ITEMS)."""
    steps = [step for step in _HOSTED_STEPS[kind] if draw(BOOLEANS)]
    return [{"type": f"response.{kind}.{step}"} for step in steps]


def _route(draw: st.DrawFn, item: JSONObject, content: list[JSONObject], style: ItemStyle) -> None:
    """The `item_id` of each content event: the item's id in OpenAI's shape (none when
    the item has none); under family 5 per event the id, a rotated id no item has, or
    none (RS-KEY-OUTPUT-INDEX)."""
    own: JSON = item.get("id")
    for event in content:
        choice = draw(st.sampled_from(["own", "rotated", "none"])) if 5 in style.families else "own"
        if choice == "rotated":
            event["item_id"] = f"rot.{next(style.rotated)}"  # "." is in no drawn id
        elif choice == "own" and own is not None:
            event["item_id"] = own


def _orphaned(
    draw: st.DrawFn,
    head: list[JSONObject],
    content: list[JSONObject],
    tail: list[JSONObject],
    item: JSONObject,
    style: ItemStyle,
    *,
    finished: bool,
) -> list[JSONObject]:
    """Family 6: content events before the `output_item.added` (RS-ORPHAN, RS-READD), or
    no `output_item.added` at all when `output_item.done` brings the whole item.

    An unfinished item keeps its announcement, and may be orphaned only where RS-READD
    says what the announcement takes over: a message or a function call, whose content
    events then name no id other than the item's own."""
    if 6 not in style.families or not draw(BOOLEANS):
        return [*head, *content, *tail]
    if finished and draw(BOOLEANS):
        return [*content, *tail]
    if not finished:
        if item["type"] not in ("message", "function_call"):
            return [*head, *content, *tail]
        for event in content:
            if event.get("item_id") != item.get("id"):
                event.pop("item_id", None)
    early = draw(st.integers(0, len(content)))
    return [*content[:early], *head, *content[early:], *tail]
