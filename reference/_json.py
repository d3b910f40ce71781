"""Reading JSON values the way the spec does: blank means absent, and numbers are numbers.

"Blank" (spec, Input and output): absent, null, a value of the wrong JSON type, or a
string that is empty or only whitespace. Whitespace is Unicode's White_Space property
(25 code points), neither Python's `str.isspace` (which adds U+001C..U+001F) nor
JavaScript's `trim` (which adds U+FEFF), so every language can implement it exactly.
Integers follow JSON, not Python: `true` is not an integer, and `1.0` is the integer 1
(a JavaScript target cannot tell them apart).
"""

from __future__ import annotations

import json
from typing import Any, NoReturn, TypeAlias

__all__ = [
    "JSON",
    "JSONObject",
    "copy_json",
    "json_equal",
    "non_blank",
    "non_negative_int",
    "object_or_none",
    "parse_json",
    "positive_int",
]

JSON: TypeAlias = Any
"""A value as `json.loads` returns it: dict, list, str, int, float, bool or None."""

JSONObject: TypeAlias = dict[str, Any]


def parse_json(text: str) -> JSON:
    """The JSON value `text` holds (RFC 8259), or ValueError: Python's `json.loads` also reads
    `NaN`, `Infinity` and `-Infinity`, which are not JSON, so data holding them is data
    that is not JSON in every dialect, as it is for every other language's parser."""
    return json.loads(text, parse_constant=_reject_constant)


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


UNICODE_WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
"""The code points with Unicode's White_Space property."""


def non_blank(value: object) -> str | None:
    """Return `value` if it is a string with a non-whitespace character, else None."""
    if isinstance(value, str) and value.strip(UNICODE_WHITESPACE):
        return value
    return None


def object_or_none(value: JSON) -> JSONObject | None:
    """Return `value` if it is a JSON object, else None (ROB-WRONG-TYPE)."""
    return value if isinstance(value, dict) else None


def non_negative_int(value: JSON) -> int | None:
    """Return `value` as an int if it is a non-negative JSON integer, else None."""
    number = _integer(value)
    return number if number is not None and number >= 0 else None


def positive_int(value: JSON) -> int | None:
    """Return `value` as an int if it is a positive JSON integer, else None."""
    number = _integer(value)
    return number if number is not None and number > 0 else None


def _integer(value: JSON) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def json_equal(a: JSON, b: JSON) -> bool:
    """Compare two JSON values as JSON: key order ignored, `1 == 1.0`, `true != 1`.

    Integers compare exactly; a float against any number compares as IEEE doubles, which
    is all a JavaScript (or any double-based) implementation can hold.
    """
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict):
        return (
            isinstance(b, dict) and a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
        )
    if isinstance(a, list):
        return (
            isinstance(b, list)
            and len(a) == len(b)
            and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, int | float):
        return isinstance(b, int | float) and _same_number(a, b)
    return type(a) is type(b) and a == b


def _same_number(a: int | float, b: int | float) -> bool:
    # A float on either side means a double was involved, so compare as doubles: a
    # JavaScript target echoes 6.903453683793277e16 as 69034536837932770, the same double.
    if isinstance(a, float) or isinstance(b, float):
        try:
            return float(a) == float(b)
        except OverflowError:  # an integer beyond every double
            return False
    return a == b


def copy_json(value: JSON) -> JSON:
    """Return a deep copy of a JSON value (faster than `copy.deepcopy` for plain JSON)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value
