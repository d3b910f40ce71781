"""One output item as streamed: its announcement, its parts, its arguments, its done item.

The announced item (`output_item.added`, or a placeholder: RS-ORPHAN) is the base; what
is streamed for it is kept beside it, by kind: a `message` streams `content` parts, a
`reasoning` item `summary` and `content` parts, a `function_call` its `arguments`. Every
other item (hosted tools, unknown types) streams nothing and is kept as sent
(RS-HOSTED-ITEMS). `output_item.done` replaces it all (RS-ITEM-DONE-REPLACES).
"""

from __future__ import annotations

from .._json import JSON, JSONObject, copy_json, non_blank
from ._calls import Arguments
from ._parts import Parts

__all__ = ["STREAMING_KINDS", "Item", "placeholder"]

STREAMING_KINDS = frozenset({"message", "reasoning", "function_call"})
"""The item types whose fields are built from events (RS-RECOVER-FROM-DELTAS)."""

_PLACEHOLDER_FIELDS: dict[str, JSONObject] = {
    "message": {"role": "assistant", "content": []},
    "function_call": {"arguments": ""},
    "reasoning": {"summary": []},
}
"""RS-ORPHAN: what a placeholder of each streaming kind holds beside type, id and status."""


_PART_LISTS: dict[str | None, tuple[str, ...]] = {
    "message": ("content",),
    "reasoning": ("summary", "content"),
}
"""The part lists each streaming kind builds (RS-CONTENT-INDEX)."""


def placeholder(item_type: str, item_id: JSON) -> JSONObject:
    """RS-ORPHAN: the item an item event opens at an index no item was announced at."""
    item: JSONObject = {"type": item_type}
    if non_blank(item_id) is not None:
        item["id"] = item_id  # from the event's non-blank item_id
    item["status"] = "in_progress"
    item.update(_PLACEHOLDER_FIELDS.get(item_type, {}))
    return item


class Item:
    """One item of the Response's `output`, keyed by its output_index (by `Items`)."""

    __slots__ = ("_arguments", "_base", "_content", "_done", "_summary")

    def __init__(self, base: JSONObject) -> None:
        self._base = base  # RS-UNKNOWN-KEYS: every key of the announced item kept
        self._content = Parts()
        self._summary = Parts()
        self._arguments = Arguments(base.get("arguments"))  # RS-ARGS-JOIN: the prefix
        self._done: JSONObject | None = None
        self._seed(base)

    def _seed(self, base: JSONObject) -> None:
        self._content.seed(base.get("content"))
        self._summary.seed(base.get("summary"))

    @property
    def type(self) -> str | None:
        """The item's `type` as announced, None when blank."""
        return non_blank(self._base.get("type"))

    @property
    def content(self) -> Parts:
        """The `content` parts (message; reasoning text)."""
        return self._content

    @property
    def summary(self) -> Parts:
        """The `summary` parts of a reasoning item."""
        return self._summary

    @property
    def arguments(self) -> Arguments:
        """The arguments of a function call."""
        return self._arguments

    @property
    def announced(self) -> JSONObject:
        """The item as its (last) `output_item.added` or placeholder sent it."""
        return self._base  # pragma: no mutate (the events suites test it)

    @property
    def done_item(self) -> JSONObject | None:
        """The item of its `output_item.done`, None before one arrived."""
        return self._done  # pragma: no mutate (the events suites test it)

    def readd(self, base: JSONObject) -> None:
        """RS-READD: a later announcement takes over the identity fields (every key it
        sends: id, call_id, name, type, status...); what was streamed, and the done item,
        are kept, and only what is still empty is filled from it."""
        self._base = base  # RS-CALL-IDS: an announcement without `id` leaves none
        self._seed(base)
        self._arguments.reannounce(base.get("arguments"))

    def finish(self, item: JSONObject) -> None:
        """RS-ITEM-DONE-REPLACES: the done item is the item (the last one, if several)."""
        self._done = item

    def output(self, status: str | None) -> JSONObject:
        """The item as the non-streamed Response holds it, as a new value; `status` is
        what RS-RECOVER-STATUS supplies for an unfinished item (None: keep as announced)."""
        if self._done is not None:
            return copy_json(self._done)  # type: ignore[no-any-return]  # RS-HOSTED-ITEMS too
        item: JSONObject = copy_json(self._base)
        item.update(self._streamed())  # the announced content, summary, arguments replaced
        current = item.get("status")
        if status is not None and (non_blank(current) is None or current == "in_progress"):
            item["status"] = status  # RS-RECOVER-STATUS: a finished response has none
        return item

    def _streamed(self) -> JSONObject:
        """RS-RECOVER-FROM-DELTAS: the fields events built, by the item's kind; a list the
        announcement sent is replaced by the parts, any other value is kept as sent."""
        kind = self.type
        fields: JSONObject = {}
        if kind == "function_call":
            fields["arguments"] = self._arguments.text  # RS-ARGS-RAW
        for key in _PART_LISTS.get(kind, ()):
            parts = self._summary if key == "summary" else self._content
            if parts or isinstance(self._base.get(key), list):
                fields[key] = parts.output()
        return fields
