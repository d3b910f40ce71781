"""Vertex's streamed function-call arguments: fragments in, one whole functionCall out.

With `streamFunctionCallArguments` Vertex splits one call over several `functionCall`
parts: the first names the call and says `willContinue: true`, nameless ones carry
`partialArgs` pieces (`jsonPath` plus one typed value), and one without `willContinue`
ends it (GM-CALL-STREAMED). A non-streamed response never holds pieces, so the call folds
into one part whose `args` is built from them (GM-CALL-PARTIAL-ARGS).
"""

from __future__ import annotations

import re
from itertools import pairwise

from .._json import JSON, JSONObject, copy_json, object_or_none

__all__ = ["StreamedCall", "is_streamed", "parse_path"]

_STREAMING_KEYS = frozenset({"partialArgs", "willContinue"})
"""Keys of a fragment that say how it streams; the folded call keeps neither."""

_NAME_FIRST = "A-Za-z_\x80-\ud7ff\ue000-\U0010ffff"
_STEP = re.compile(
    rf"\.([{_NAME_FIRST}][{_NAME_FIRST}0-9]*)|\[(0|[1-9][0-9]*)\]|\['([^']*)'\]|\[\"([^\"]*)\"\]"
)
"""One RFC 9535 segment: `.name`, `[n]`, `['name']` or `["name"]` (no escapes). A shorthand
name starts with an ASCII letter, `_` or any non-ASCII scalar value, then those or ASCII
digits; an index is ASCII digits without a leading zero (RFC 9535 `name-first`, `int`)."""

Path = tuple[str | int, ...]


def is_streamed(call: JSONObject) -> bool:
    """True when a functionCall is a streamed fragment: it continues or carries pieces."""
    return call.get("willContinue") is True or isinstance(call.get("partialArgs"), list)


def parse_path(text: JSON) -> Path | None:
    """The steps of a `jsonPath` below `$`, or None when it names no member of the args."""
    if not isinstance(text, str) or not text.startswith("$"):
        return None
    steps: list[str | int] = []
    position = 1
    while position < len(text):
        match = _STEP.match(text, position)
        if match is None:
            return None
        name, index, single, double = match.groups()
        steps.append(int(index) if index is not None else name or single or double or "")
        position = match.end()
    return tuple(steps) if steps and isinstance(steps[0], str) else None


def _piece_value(piece: JSONObject) -> tuple[bool, JSON]:
    """(True, value) for the piece's typed value, (False, None) when it has none."""
    string = piece.get("stringValue")
    if isinstance(string, str):
        return True, string
    number = piece.get("numberValue")
    if isinstance(number, int | float) and not isinstance(number, bool):
        return True, number
    boolean = piece.get("boolValue")
    if isinstance(boolean, bool):
        return True, boolean
    return piece.get("nullValue") is not None, None  # "NULL_VALUE" stands for null


def _fits(container: JSON, step: str | int) -> bool:
    return isinstance(container, dict) if isinstance(step, str) else isinstance(container, list)


def _get(container: JSON, step: str | int) -> JSON:
    if isinstance(container, dict):
        return container.get(step)
    return container[step] if step < len(container) else None  # type: ignore[operator]


def _put(container: JSON, step: str | int, value: JSON) -> None:
    if isinstance(container, list):
        assert isinstance(step, int)
        container.extend([None] * (step + 1 - len(container)))
    container[step] = value


def _set(args: JSONObject, path: Path, value: JSON) -> None:
    """Set `value` at `path`, making the objects and arrays on the way; a piece whose path
    runs through a value of another type is ignored (GM-ROB-WRONG-TYPE)."""
    container: JSON = args
    for step, following in pairwise(path):
        child = _get(container, step)
        if child is None:
            child = {} if isinstance(following, str) else []
            _put(container, step, child)
        if not _fits(child, following):
            return
        container = child
    _put(container, path[-1], value)


class StreamedCall:
    """One call assembled from its fragments (GM-CALL-STREAMED, GM-CALL-PARTIAL-ARGS)."""

    __slots__ = ("_args", "_call", "_continued", "_part", "open")

    open: bool
    """True while nameless fragments continue this call."""

    def __init__(self, part: JSONObject, call: JSONObject) -> None:
        self._part = {key: value for key, value in part.items() if key != "functionCall"}
        self._call = {key: value for key, value in call.items() if key not in _STREAMING_KEYS}
        self._args: JSONObject | None = None  # None: no piece applied yet
        self._continued: tuple[Path, str] | None = None  # a string piece with willContinue
        self._pieces(call)

    def extend(self, part: JSONObject, call: JSONObject) -> None:
        """Fold a nameless fragment: its part keys and call keys (last non-null), its pieces."""
        for key, value in part.items():
            if key != "functionCall" and value is not None:
                self._part[key] = value  # a signature on a later fragment is kept
        for key, value in call.items():
            if key not in _STREAMING_KEYS and key != "name" and value is not None:
                self._call[key] = value
        self._pieces(call)

    def _pieces(self, call: JSONObject) -> None:
        pieces = call.get("partialArgs")
        for piece in pieces if isinstance(pieces, list) else []:
            entry = object_or_none(piece)
            if entry is not None:  # GM-ROB-NULL-ENTRIES
                self._piece(entry)
        # GM-CALL-STREAMED: a fragment without willContinue (`{}`, a last piece) ends it
        self.open = call.get("willContinue") is True

    def _piece(self, piece: JSONObject) -> None:
        path = parse_path(piece.get("jsonPath"))
        found, value = _piece_value(piece)
        if path is None or not found:
            return  # GM-ROB-WRONG-TYPE: a piece without a path or a value sets nothing
        if isinstance(value, str) and self._continued is not None and self._continued[0] == path:
            value = self._continued[1] + value  # GM-CALL-PARTIAL-ARGS: continued strings join
        continues = isinstance(value, str) and piece.get("willContinue") is True
        self._continued = (path, value) if continues else None
        if self._args is None:
            self._args = {}
        _set(self._args, path, value)

    def output(self) -> JSONObject:
        """The folded part: the fragments' part keys, and one functionCall without pieces."""
        call: JSONObject = copy_json(self._call)
        if self._args is not None:
            call["args"] = copy_json(self._args)  # built args replace any sent with the name
        part: JSONObject = {"functionCall": call, **copy_json(self._part)}
        return part
