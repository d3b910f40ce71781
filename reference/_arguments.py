"""Tool-call arguments: kept verbatim, with a linear-time "complete arguments" check.

"Complete arguments" (spec, Input and output): a string that, with JSON whitespace
trimmed, parses as one JSON object. The tool-call ladder asks it of every fragment and,
only when the fragment is complete, of the call's accumulated arguments (TOOL-3, TOOL-4).

Two costs are kept linear in the stream size:

* A fragment is tested first, and a fragment that does not start with `{` and end with
  `}` is rejected without parsing, so the usual one-piece-of-an-object fragment is O(1).
* The accumulated arguments are never re-parsed from scratch on every fragment. A small
  scanner follows the top-level structure of what has arrived so far, resuming where it
  stopped, and only a text whose first value is one closed object followed by nothing but
  whitespace is handed to `json.loads`, once. After such a close any non-whitespace
  makes the text permanently incomplete, so no text is parsed twice.
"""

from __future__ import annotations

import re

from ._json import JSONObject, parse_json

__all__ = ["Arguments", "parse_complete"]

_JSON_WHITESPACE = " \t\n\r"
_NON_WHITESPACE = re.compile(r"[^ \t\n\r]")
_STRUCTURE = re.compile(r'["{}\[\]]')
_STRING_STOP = re.compile(r'["\\]')

# Scanner phases, in the order a complete object passes through them.
_BEFORE, _INSIDE, _CLOSED, _BROKEN = range(4)


def parse_complete(text: str) -> JSONObject | None:
    """Return the object that `text` holds if it is complete arguments, else None.

    `NaN` and `Infinity` are not JSON, so arguments holding them are not complete, and
    neither are arguments nested deeper than the JSON decoder's recursion limit.
    """
    stripped = text.strip(_JSON_WHITESPACE)
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:
        value = parse_json(stripped)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


class Arguments:
    """The arguments of one call: fragments joined verbatim (TOOL-5-APPEND, TOOL-RAW)."""

    __slots__ = (
        "_depth",
        "_escape",
        "_in_string",
        "_parsed",
        "_parts",
        "_phase",
        "_scan_offset",
        "_scan_part",
    )

    def __init__(self) -> None:
        self._parts: list[str] = []
        # The scanner resumes at character `_scan_offset` of part `_scan_part`.
        self._scan_part = 0
        self._scan_offset = 0
        self._phase = _BEFORE
        self._depth = 0
        self._in_string = False
        self._escape = False
        self._parsed: JSONObject | None = None

    def append(self, fragment: str) -> None:
        """Append one `function.arguments` fragment exactly as it arrived."""
        if fragment:
            self._parts.append(fragment)

    @property
    def empty(self) -> bool:
        """True while no fragment has carried a character (TOOL-EMPTY-ARGS)."""
        return not self._parts

    @property
    def text(self) -> str:
        """The arguments as they arrived, joined."""
        parts = self._parts
        if len(parts) > 1:
            scanned = sum(map(len, parts[: self._scan_part])) + self._scan_offset
            parts[:] = ["".join(parts)]
            self._scan_part, self._scan_offset = 0, scanned
        return parts[0] if parts else ""

    def complete_value(self) -> JSONObject | None:
        """Return the parsed object if the arguments so far are complete, else None."""
        parts = self._parts
        while self._scan_part < len(parts) and self._phase != _BROKEN:
            self._scan(parts[self._scan_part], self._scan_offset)
            self._scan_part, self._scan_offset = self._scan_part + 1, 0
        if self._phase != _CLOSED:
            return None
        if self._parsed is None:
            self._parsed = parse_complete(self.text)
            if self._parsed is None:
                self._phase = _BROKEN
        return self._parsed

    def _scan(self, text: str, position: int) -> None:
        end = len(text)
        while position < end and self._phase != _BROKEN:
            if self._escape:
                self._escape = False
                position += 1
            elif self._in_string:
                position = self._scan_string(text, position)
            elif self._phase == _INSIDE:
                position = self._scan_structure(text, position)
            else:
                position = self._scan_top_level(text, position)

    def _scan_string(self, text: str, position: int) -> int:
        match = _STRING_STOP.search(text, position)
        if match is None:
            return len(text)
        if match.group() == "\\":
            self._escape = True
        else:
            self._in_string = False
        return match.end()

    def _scan_structure(self, text: str, position: int) -> int:
        match = _STRUCTURE.search(text, position)
        if match is None:
            return len(text)
        token = match.group()
        if token == '"':
            self._in_string = True
        elif token in "{[":
            self._depth += 1
        else:
            self._depth -= 1
            if self._depth == 0:
                self._phase = _CLOSED
        return match.end()

    def _scan_top_level(self, text: str, position: int) -> int:
        match = _NON_WHITESPACE.search(text, position)
        if match is None:
            return len(text)
        if self._phase == _BEFORE and match.group() == "{":
            self._phase, self._depth = _INSIDE, 1
        else:
            self._phase = _BROKEN
        return match.end()
