"""Bounded JSON text: a value as plain JSON no larger than a fixed size, whatever it holds.

A failure record crosses from a pytest-xdist worker to the controller inside a test
report, through execnet, whose serialiser cannot carry every Python value (an integer
below -2**31 raised `struct.error` and ended the run in an INTERNALERROR). A record is
therefore sent as one JSON string, and a string of bounded size: an unshrunk failing
stream can hold megabytes. Values too large to show are cut with a marker saying how
much was cut, `… (N bytes cut)`; non-finite floats become strings (JSON has no NaN).
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["TEXT_LIMIT", "bounded_json"]

TEXT_LIMIT = 256_000
"""The most characters `bounded_json` returns."""

_LIMITS = ((4000, 200), (1000, 50), (200, 10), (40, 3))
"""(characters per string, items per array or object), tried in turn until it fits."""

_MAX_DEPTH = 40
_INT_BITS = 256  # beyond this, an integer is shown by its size (str() of 10**5000 raises)


def bounded_json(value: Any, limit: int = TEXT_LIMIT) -> str:
    """`value` as compact JSON text of at most `limit` characters.

    Strings, arrays and objects are cut, more of them the larger the value is; when even
    the tightest cut does not fit, the text is a JSON string saying how large it was.
    """
    text = ""
    for characters, items in _LIMITS:
        text = _dumps(_cut(value, characters, items, 0))
        if len(text) <= limit:
            return text
    return _dumps(f"… ({len(text.encode())} bytes cut)")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _cut(value: Any, characters: int, items: int, depth: int) -> Any:
    if isinstance(value, str):
        return _cut_text(value, characters)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if value.bit_length() <= _INT_BITS else (
            f"<an integer of {value.bit_length()} bits> (… cut)")
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if depth >= _MAX_DEPTH:
        return f"… (nested deeper than {_MAX_DEPTH}, cut)"
    if isinstance(value, dict):
        kept = {_cut_text(str(k), characters): _cut(v, characters, items, depth + 1)
                for k, v in list(value.items())[:items]}
        if len(value) > items:
            kept["…"] = f"({len(value) - items} entries cut)"
        return kept
    if isinstance(value, list | tuple):
        cut = [_cut(v, characters, items, depth + 1) for v in value[:items]]
        return [*cut, f"… ({len(value) - items} items cut)"] if len(value) > items else cut
    return _cut_text(repr(value), characters)


def _cut_text(text: str, characters: int) -> str:
    if len(text) <= characters:
        return text
    return f"{text[:characters]}… ({len(text[characters:].encode())} bytes cut)"
