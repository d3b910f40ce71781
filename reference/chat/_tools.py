"""Tool calls of one choice: the TOOL-1 … TOOL-5 ladder and the per-call rules.

A choice keeps, per tool index, an ordered list of calls; the *current* call of an index
is the last one in its list. Each fragment of `delta.tool_calls` is applied in order and
the first matching rung of the ladder decides what it does:

    TOOL-1-OPEN    no call on the index yet            -> start a call
    TOOL-2-NEW-ID  a non-blank id that differs from    -> start a new call
                   the current call's non-blank id
    TOOL-3-RESEND  complete arguments onto complete    -> nothing changes
                   arguments, with the current id (or
                   no id, no name and equal as JSON)
    TOOL-4-SPLIT   complete arguments onto complete    -> start a new call
                   arguments
    TOOL-5-APPEND  anything else                       -> append to the current call

The fragment's own completeness is tested before the call's (see `_arguments`), so a
stream of ordinary fragments never pays for a parse.
"""

from __future__ import annotations

from .._arguments import Arguments, parse_complete
from .._json import JSON, JSONObject, json_equal, non_blank, non_negative_int, object_or_none

__all__ = ["ToolCalls"]


class _Fragment:
    """The fields of one `delta.tool_calls` entry, read as the spec reads them."""

    __slots__ = ("_complete", "_parsed", "arguments", "id", "name", "type")

    def __init__(self, entry: JSONObject) -> None:
        function = object_or_none(entry.get("function")) or {}
        arguments = function.get("arguments")
        self.id = non_blank(entry.get("id"))
        self.type = non_blank(entry.get("type"))
        self.name = non_blank(function.get("name"))
        self.arguments = arguments if isinstance(arguments, str) else None
        self._complete: bool | None = None
        self._parsed: JSONObject | None = None

    def complete_value(self) -> JSONObject | None:
        """The parsed arguments if this fragment's arguments are complete, else None."""
        if self._complete is None:
            self._parsed = parse_complete(self.arguments) if self.arguments else None
            self._complete = self._parsed is not None
        return self._parsed


class _Call:
    """One output tool call being folded."""

    __slots__ = ("arguments", "id", "name", "type")

    def __init__(self, fragment: _Fragment) -> None:
        self.id = fragment.id
        self.type = fragment.type  # TOOL-TYPE: a new call never inherits a type
        self.name = fragment.name
        self.arguments = Arguments()
        if fragment.arguments is not None:
            self.arguments.append(fragment.arguments)

    def append(self, fragment: _Fragment) -> None:
        """TOOL-5-APPEND, with the first-non-blank identity rules."""
        if self.id is None:
            self.id = fragment.id  # TOOL-ADOPT-ID
        if self.name is None:
            self.name = fragment.name  # TOOL-NAME
        if self.type is None:
            self.type = fragment.type  # TOOL-TYPE
        if fragment.arguments is not None:
            self.arguments.append(fragment.arguments)

    def output(self, *, finished: bool) -> JSONObject:
        """TOOL-OUTPUT: no `index`; TOOL-EMPTY-ARGS: `{}` only once finished."""
        arguments = "{}" if finished and self.arguments.empty else self.arguments.text
        return {
            "id": self.id,
            "type": self.type or "function",
            "function": {"name": self.name, "arguments": arguments},
        }


class ToolCalls:
    """Every tool call of one choice, keyed by tool index."""

    __slots__ = ("_by_index", "_last_index")

    def __init__(self) -> None:
        self._by_index: dict[int, list[_Call]] = {}
        self._last_index = 0

    def add(self, entries: JSON) -> None:
        """Fold one `delta.tool_calls` value; non-object entries are skipped."""
        if not isinstance(entries, list):
            return  # ROB-WRONG-TYPE
        for entry in entries:
            if isinstance(entry, dict):  # ROB-NULL-ENTRIES
                self._add_fragment(entry)

    def _add_fragment(self, entry: JSONObject) -> None:
        index = non_negative_int(entry.get("index"))  # TOOL-INDEX
        if index is None:
            index = self._last_index  # TOOL-NO-INDEX
        self._last_index = index
        fragment = _Fragment(entry)
        calls = self._by_index.get(index)
        if not calls:
            self._by_index[index] = [_Call(fragment)]  # TOOL-1-OPEN
            return
        current = calls[-1]
        if _new_id(fragment, current):
            calls.append(_Call(fragment))  # TOOL-2-NEW-ID
        elif _complete_onto_complete(fragment, current):
            if not _resend(fragment, current):  # TOOL-3-RESEND changes nothing
                calls.append(_Call(fragment))  # TOOL-4-SPLIT
        else:
            current.append(fragment)  # TOOL-5-APPEND

    def output(self, *, finished: bool) -> list[JSONObject]:
        """The calls ordered by index, then by arrival within an index (TOOL-OUTPUT)."""
        return [
            call.output(finished=finished)
            for index in sorted(self._by_index)
            for call in self._by_index[index]
        ]


def _new_id(fragment: _Fragment, current: _Call) -> bool:
    return fragment.id is not None and current.id is not None and fragment.id != current.id


def _complete_onto_complete(fragment: _Fragment, current: _Call) -> bool:
    return fragment.complete_value() is not None and current.arguments.complete_value() is not None


def _resend(fragment: _Fragment, current: _Call) -> bool:
    if fragment.id is not None:
        return fragment.id == current.id
    return fragment.name is None and json_equal(
        fragment.complete_value(), current.arguments.complete_value()
    )
