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

__all__ = ["ITEM_EVENTS", "ItemEvent", "Items"]

_Apply = Callable[[Item, JSONObject], None]


class ItemEvent(NamedTuple):
    """What one item event type does: the item types it fits, the type a placeholder it
    opens has, and how it changes the item it is routed to."""

    kinds: frozenset[str]
    implied: Callable[[JSONObject], str]
    apply: _Apply


class Items:
    """The items streamed so far, by output_index."""

    __slots__ = ("_announced", "_items")

    def __init__(self) -> None:
        self._items: dict[int, Item] = {}
        self._announced: dict[str, int] = {}  # item id -> output_index of its last added

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
        held = self._held(event, item.get("id"), non_blank(item.get("type")))
        if held is not None:
            held.finish(item)  # RS-ITEM-DONE-REPLACES, RS-HOSTED-ITEMS

    def apply(self, event: JSONObject, kind: ItemEvent) -> None:
        """Fold an item event other than output_item.added/done, routed by its item_id."""
        held = self._held(event, event.get("item_id"), kind.implied(event))
        if held is not None and held.type in kind.kinds:
            kind.apply(held, event)
        # RS-KIND-MATCH: an event that does not fit its item's type changes nothing

    def _held(self, event: JSONObject, item_id: JSON, implied: str | None) -> Item | None:
        known = non_blank(item_id)
        index = self._announced.get(known) if known is not None else None  # RS-ROUTE
        if index is None:
            index = non_negative_int(event.get("output_index"))  # RS-KEY-OUTPUT-INDEX
        if index is None:
            return None  # RS-WRONG-TYPE: an event that names no item changes nothing
        held = self._items.get(index)
        if held is None:
            # RS-ORPHAN: content before (or without) its output_item.added
            held = self._items[index] = Item(placeholder(implied, item_id))
        return held

    def output(self, status: str | None) -> list[JSONObject]:
        """RS-OUTPUT-ORDER: the items by ascending output_index, gaps closed up."""
        return [self._items[index].output(status) for index in sorted(self._items)]


def _implied(item_type: str) -> Callable[[JSONObject], str]:
    return lambda event: item_type


def _part_implied(event: JSONObject) -> str:
    """A content part of reasoning text implies a reasoning item; any other a message."""
    part = object_or_none(event.get("part"))
    return "reasoning" if part is not None and part.get("type") == "reasoning_text" else "message"


def _delta(lists: str, part_type: str, index_key: str) -> _Apply:
    """RS-TEXT-JOIN, RS-REFUSAL, RS-REASONING-TEXT, RS-REASONING-SUMMARY."""
    def apply(item: Item, event: JSONObject) -> None:
        part = getattr(item, lists).part(event.get(index_key), part_type)
        if part is not None:
            part.append(event.get("delta"))
    return apply


def _text_done(lists: str, part_type: str, index_key: str, value_key: str) -> _Apply:
    """RS-DONE-REPLACES: a text, refusal or reasoning .done sets its part's text."""
    def apply(item: Item, event: JSONObject) -> None:
        part = getattr(item, lists).part(event.get(index_key), part_type)
        if part is not None:
            part.set_text(event.get(value_key))
    return apply


def _part_event(lists: str, index_key: str, *, done: bool) -> _Apply:
    """part.added opens a part (RS-CONTENT-INDEX); part.done replaces it (RS-DONE-REPLACES)."""
    def apply(item: Item, event: JSONObject) -> None:
        parts = getattr(item, lists)
        (parts.done if done else parts.opened)(event.get(index_key), event.get("part"))
    return apply


def _annotation(item: Item, event: JSONObject) -> None:
    """RS-ANNOTATIONS: on the output_text part at content_index, at annotation_index."""
    part = item.content.part(event.get("content_index"), "output_text")
    if part is not None:
        part.annotate(event.get("annotation_index"), event.get("annotation"))


def _arguments_delta(item: Item, event: JSONObject) -> None:
    item.arguments.append(event.get("delta"))  # RS-ARGS-JOIN


def _arguments_done(item: Item, event: JSONObject) -> None:
    item.arguments.done(event.get("arguments"))  # RS-DONE-REPLACES


def _hosted(item: Item, event: JSONObject) -> None:
    """RS-HOSTED-ITEMS: a status event changes no item; only the done item is authoritative."""


_MESSAGE = frozenset({"message"})
_REASONING = frozenset({"reasoning"})
_WITH_PARTS = frozenset({"message", "reasoning"})
_CALL = frozenset({"function_call"})
_C, _S = "content", "summary"

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

_HOSTED_ITEM = {"code_interpreter_call_code": "code_interpreter_call",
                "mcp_call_arguments": "mcp_call", "custom_tool_call_input": "custom_tool_call"}

ITEM_EVENTS: dict[str, ItemEvent] = {
    "response.content_part.added": ItemEvent(_WITH_PARTS, _part_implied,
                                             _part_event(_C, "content_index", done=False)),
    "response.content_part.done": ItemEvent(_WITH_PARTS, _part_implied,
                                            _part_event(_C, "content_index", done=True)),
    "response.output_text.delta": ItemEvent(_MESSAGE, _implied("message"),
                                            _delta(_C, "output_text", "content_index")),
    "response.output_text.done": ItemEvent(
        _MESSAGE, _implied("message"), _text_done(_C, "output_text", "content_index", "text")),
    "response.output_text.annotation.added": ItemEvent(_MESSAGE, _implied("message"),
                                                       _annotation),
    "response.refusal.delta": ItemEvent(_MESSAGE, _implied("message"),
                                        _delta(_C, "refusal", "content_index")),
    "response.refusal.done": ItemEvent(
        _MESSAGE, _implied("message"), _text_done(_C, "refusal", "content_index", "refusal")),
    "response.reasoning_text.delta": ItemEvent(_REASONING, _implied("reasoning"),
                                               _delta(_C, "reasoning_text", "content_index")),
    "response.reasoning_text.done": ItemEvent(_REASONING, _implied("reasoning"), _text_done(
        _C, "reasoning_text", "content_index", "text")),
    "response.reasoning_summary_part.added": ItemEvent(
        _REASONING, _implied("reasoning"), _part_event(_S, "summary_index", done=False)),
    "response.reasoning_summary_part.done": ItemEvent(
        _REASONING, _implied("reasoning"), _part_event(_S, "summary_index", done=True)),
    "response.reasoning_summary_text.delta": ItemEvent(
        _REASONING, _implied("reasoning"), _delta(_S, "summary_text", "summary_index")),
    "response.reasoning_summary_text.done": ItemEvent(_REASONING, _implied("reasoning"), _text_done(
        _S, "summary_text", "summary_index", "text")),
    "response.function_call_arguments.delta": ItemEvent(_CALL, _implied("function_call"),
                                                        _arguments_delta),
    "response.function_call_arguments.done": ItemEvent(_CALL, _implied("function_call"),
                                                       _arguments_done),
    **{f"response.{family}.{step}": ItemEvent(frozenset(), _implied(
        _HOSTED_ITEM.get(family, family)), _hosted)
       for family, steps in _HOSTED_EVENTS.items() for step in steps},
}
"""Every item event type but output_item.added/done, by `type`."""
