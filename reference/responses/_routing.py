"""The streamed items: keyed by output_index, found by announced id, opened by any event.

`Items` holds the `output` a stream built. An item event is routed to an item (RS-ROUTE:
an announced id wins, else the event's output_index: RS-KEY-OUTPUT-INDEX), opens a
placeholder where there is none (RS-ORPHAN), and is applied only when it fits the item's
type (RS-KIND-MATCH). `ITEM_EVENTS` names every item event type the fold acts on; an
event type it does not name is ignored (RS-KEEPALIVE).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .._json import JSON, JSONObject, non_blank, non_negative_int, object_or_none
from ._items import Item, placeholder
from ._parts import Parts

__all__ = ["ITEM_EVENTS", "ItemEvent", "Items"]

_Apply = Callable[[Item, JSONObject, "ItemEvent"], None]


class ItemEvent(NamedTuple):
    """What one item event type does: the item types it fits, the type a placeholder it
    opens has ("": the one its `part` implies), how it changes the item it is routed to,
    and the keys that action reads: which part list, the part type, the index key and the
    value key. Plain data read when an event arrives, so every step is a function call."""

    kinds: frozenset[str]
    implied: str
    apply: _Apply
    lists: str = "content"
    part_type: str = ""
    index_key: str = "content_index"
    value_key: str = ""


class Items:
    """The items streamed so far, by output_index."""

    __slots__ = ("_announced", "_items")

    def __init__(self) -> None:
        self._items: dict[int, Item] = {}
        # a non-blank item id -> the output_index of its last output_item.added
        self._announced: dict[str | None, int] = {}

    def added(self, event: JSONObject) -> None:
        """Fold `response.output_item.added`: routed by its output_index alone."""
        index = non_negative_int(event.get("output_index"))
        item = object_or_none(event.get("item"))
        if index is None or item is None:
            return  # RS-NULL-ITEM: the index stays free; RS-WRONG-TYPE
        held = self._items.get(index)
        if held is None:
            self._items[index] = Item(item)  # RS-KEY-OUTPUT-INDEX
        else:
            held.readd(item)  # RS-READD
        item_id = non_blank(item.get("id"))
        if item_id is not None:
            self._announced[item_id] = index  # RS-ROUTE: this id now names this item

    def done(self, event: JSONObject) -> None:
        """Fold `response.output_item.done`, routed by its `item.id` (RS-ROUTE)."""
        item = object_or_none(event.get("item"))
        if item is None:
            return  # RS-WRONG-TYPE: a blank done item finishes nothing, opens nothing
        index = self._index(event, item.get("id"))
        if index is None:
            return  # RS-WRONG-TYPE: an event that names no item changes nothing
        # RS-ORPHAN: a done item nothing announced is the item (and its announcement);
        # RS-ITEM-DONE-REPLACES, RS-HOSTED-ITEMS: the done item is the item from now on
        self._items.setdefault(index, Item(item)).finish(item)

    def apply(self, event: JSONObject, kind: ItemEvent) -> None:
        """Fold an item event other than output_item.added/done, routed by its item_id."""
        item_id = event.get("item_id")
        index = self._index(event, item_id)
        if index is None:
            return  # RS-WRONG-TYPE: an event that names no item changes nothing
        held = self._items.get(index)
        if held is None:
            # RS-ORPHAN: content before (or without) its output_item.added
            implied = kind.implied or _part_implied(event)
            held = self._items[index] = Item(placeholder(implied, item_id))
        if held.type in kind.kinds:
            kind.apply(held, event, kind)
        # RS-KIND-MATCH: an event that does not fit its item's type changes nothing

    def at(self, index: int) -> Item | None:
        """The item at output_index `index`, or None."""
        return self._items.get(index)  # pragma: no mutate (the events suites test it)

    def index_of(self, item_id: str) -> int | None:
        """The output_index the announced id `item_id` names, or None."""
        return self._announced.get(item_id)  # pragma: no mutate (the events suites test it)

    def _index(self, event: JSONObject, item_id: JSON) -> int | None:
        index = self._announced.get(non_blank(item_id))  # RS-ROUTE: an announced id wins
        if index is None:
            index = non_negative_int(event.get("output_index"))  # RS-KEY-OUTPUT-INDEX
        return index

    def output(self, status: str | None) -> list[JSONObject]:
        """RS-OUTPUT-ORDER: the items by ascending output_index, gaps closed up."""
        return [self._items[index].output(status) for index in sorted(self._items)]


def _part_implied(event: JSONObject) -> str:
    """A content part of reasoning text implies a reasoning item; any other a message."""
    part = object_or_none(event.get("part"))
    return "reasoning" if part is not None and part.get("type") == "reasoning_text" else "message"


def _parts(item: Item, kind: ItemEvent) -> Parts:
    return item.summary if kind.lists == "summary" else item.content


def _delta(item: Item, event: JSONObject, kind: ItemEvent) -> None:
    """RS-TEXT-JOIN, RS-REFUSAL, RS-REASONING-TEXT, RS-REASONING-SUMMARY."""
    part = _parts(item, kind).part(event.get(kind.index_key), kind.part_type)
    if part is not None:
        part.append(event.get("delta"))


def _text_done(item: Item, event: JSONObject, kind: ItemEvent) -> None:
    """RS-DONE-REPLACES: a text, refusal or reasoning .done sets its part's text."""
    part = _parts(item, kind).part(event.get(kind.index_key), kind.part_type)
    if part is not None:
        part.set_text(event.get(kind.value_key))


def _part_added(item: Item, event: JSONObject, kind: ItemEvent) -> None:
    """part.added opens the part at its index (RS-CONTENT-INDEX)."""
    _parts(item, kind).opened(event.get(kind.index_key), event.get("part"))


def _part_done(item: Item, event: JSONObject, kind: ItemEvent) -> None:
    """part.done replaces the part at its index (RS-DONE-REPLACES)."""
    _parts(item, kind).done(event.get(kind.index_key), event.get("part"))


def _annotation(item: Item, event: JSONObject, kind: ItemEvent) -> None:
    """RS-ANNOTATIONS: on the output_text part at content_index, at annotation_index."""
    part = item.content.part(event.get("content_index"), "output_text")
    if part is not None:
        part.annotate(event.get("annotation_index"), event.get("annotation"))


def _arguments_delta(item: Item, event: JSONObject, kind: ItemEvent) -> None:
    item.arguments.append(event.get("delta"))  # RS-ARGS-JOIN


def _arguments_done(item: Item, event: JSONObject, kind: ItemEvent) -> None:
    item.arguments.done(event.get("arguments"))  # RS-DONE-REPLACES


def _hosted(item: Item, event: JSONObject, kind: ItemEvent) -> None:
    """RS-HOSTED-ITEMS: a status event changes no item; only the done item is authoritative."""


_MESSAGE = frozenset({"message"})
_REASONING = frozenset({"reasoning"})
_WITH_PARTS = frozenset({"message", "reasoning"})
_CALL = frozenset({"function_call"})
_SUMMARY = {"lists": "summary", "index_key": "summary_index"}

_HOSTED_EVENTS: dict[str, tuple[str, ...]] = {
    "web_search_call": ("in_progress", "searching", "completed"),
    "file_search_call": ("in_progress", "searching", "completed"),
    "code_interpreter_call": ("in_progress", "interpreting", "completed"),
    "code_interpreter_call_code": ("delta", "done"),
    "image_generation_call": ("in_progress", "generating", "partial_image", "completed"),
    "mcp_call": ("in_progress", "completed", "failed"),
    "mcp_call_arguments": ("delta", "done"),
    "mcp_list_tools": ("in_progress", "completed", "failed"),
    "custom_tool_call_input": ("delta", "done"),
}
"""Hosted-tool event families (openai-python types) and the item type each implies."""

_HOSTED_ITEM = {
    "code_interpreter_call_code": "code_interpreter_call",
    "mcp_call_arguments": "mcp_call",
    "custom_tool_call_input": "custom_tool_call",
}

ITEM_EVENTS: dict[str, ItemEvent] = {
    "response.content_part.added": ItemEvent(_WITH_PARTS, "", _part_added),
    "response.content_part.done": ItemEvent(_WITH_PARTS, "", _part_done),
    "response.output_text.delta": ItemEvent(_MESSAGE, "message", _delta, part_type="output_text"),
    "response.output_text.done": ItemEvent(
        _MESSAGE, "message", _text_done, part_type="output_text", value_key="text"
    ),
    "response.output_text.annotation.added": ItemEvent(_MESSAGE, "message", _annotation),
    "response.refusal.delta": ItemEvent(_MESSAGE, "message", _delta, part_type="refusal"),
    "response.refusal.done": ItemEvent(
        _MESSAGE, "message", _text_done, part_type="refusal", value_key="refusal"
    ),
    "response.reasoning_text.delta": ItemEvent(
        _REASONING, "reasoning", _delta, part_type="reasoning_text"
    ),
    "response.reasoning_text.done": ItemEvent(
        _REASONING, "reasoning", _text_done, part_type="reasoning_text", value_key="text"
    ),
    "response.reasoning_summary_part.added": ItemEvent(
        _REASONING, "reasoning", _part_added, **_SUMMARY
    ),
    "response.reasoning_summary_part.done": ItemEvent(
        _REASONING, "reasoning", _part_done, **_SUMMARY
    ),
    "response.reasoning_summary_text.delta": ItemEvent(
        _REASONING, "reasoning", _delta, part_type="summary_text", **_SUMMARY
    ),
    "response.reasoning_summary_text.done": ItemEvent(
        _REASONING, "reasoning", _text_done, part_type="summary_text", value_key="text", **_SUMMARY
    ),
    "response.function_call_arguments.delta": ItemEvent(_CALL, "function_call", _arguments_delta),
    "response.function_call_arguments.done": ItemEvent(_CALL, "function_call", _arguments_done),
    **{
        f"response.{family}.{step}": ItemEvent(
            frozenset(), _HOSTED_ITEM.get(family, family), _hosted
        )
        for family, steps in _HOSTED_EVENTS.items()
        for step in steps
    },
}
"""Every item event type but output_item.added/done, by `type`."""
