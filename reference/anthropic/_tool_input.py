"""Tool blocks (`tool_use`, `server_tool_use`, `mcp_tool_use`): the input ladder.

The `partial_json` fragments are kept verbatim in an `Arguments` buffer (the chat fold's
linear-time joiner and complete-object scanner), so a long input streamed one character
per event costs linear time, and the joined input is parsed once, as a whole (AM-TOOL-JOIN).
"""

from __future__ import annotations

from .._arguments import Arguments
from .._json import JSONObject, copy_json

__all__ = ["TOOL_BLOCK_TYPES", "ToolBlock"]

TOOL_BLOCK_TYPES = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
"""Block types that `input_json_delta` applies to (AM-DELTA-MATCH, AM-SERVER-TOOL)."""

_JSON_WHITESPACE = " \t\n\r"


class ToolBlock:
    """One tool block: its start value and its joined `partial_json`."""

    __slots__ = ("_input", "_start")

    def __init__(self, start: JSONObject) -> None:
        self._start = start  # AM-TOOL-IDENTITY: id, name and every other key kept as sent
        self._input = Arguments()

    def apply(self, delta_type: str | None, delta: JSONObject) -> None:
        """Apply one delta; only `input_json_delta` is defined for tool blocks."""
        if delta_type != "input_json_delta":
            return  # AM-DELTA-MATCH
        fragment = delta.get("partial_json")
        if isinstance(fragment, str):  # AM-ROB-WRONG-TYPE
            self._input.append(fragment)  # AM-TOOL-JOIN: verbatim, in arrival order

    def output(self) -> JSONObject:
        """The block as the non-streaming Message holds it, as a new value."""
        block: JSONObject = copy_json(self._start)
        if _empty(self._input):
            return block  # AM-TOOL-NO-DELTA: the start's `input` stands
        parsed = self._input.complete_value()
        if parsed is not None:
            block["input"] = copy_json(parsed)  # AM-TOOL-JOIN, replacing the start's input
        else:
            block["input"] = self._input.text  # AM-TOOL-INVALID: the raw joined input
        return block


def _empty(arguments: Arguments) -> bool:
    # "Empty": no fragment, or nothing left after trimming JSON whitespace.
    return arguments.empty or not arguments.text.strip(_JSON_WHITESPACE)
