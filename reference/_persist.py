"""How much of a value is kept, and how it is written: bounded, finite, scrubbed JSON.

A target can answer with a 200 MB string; what refold keeps of it (in failure messages,
replay files, results and reports) is bounded by `bound`, with a visible marker where
something was cut: a string keeps its first `STRING_BYTES` bytes of UTF-8 and ends in
"… (N bytes cut)"; a list keeps `ITEMS` entries and ends in "… (N entries cut)"; an
object keeps `ITEMS` members and gains a member "…": "(N members cut)"; containers
nested deeper than `DEPTH` become "… (N entries cut, nested deeper than 32 levels)"; and once
`TOTAL_BYTES` of strings are kept, everything after is cut the same way (a whole
document, see `persistable`, has larger bounds).

JSON has no NaN or infinities, so `bound` writes them as the strings "NaN",
"Infinity" and "-Infinity" (the names Python's and JavaScript's JSON readers use) and
`json_text` writes with `allow_nan=False`: no file holds a bare `NaN` token, and no raw
control character either: JSON escapes C0 itself, and `json_text` writes DEL and the C1
controls (U+007F-U+009F, which a terminal obeys: U+009B is CSI) as `\\u009b`. An integer
beyond 256 bits is kept as a sentence giving its size (Python will not even print one of
5,000 digits). Values that are not JSON at all become their `repr`.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ._compare import ABSENT
from ._scrub import scrub, scrub_text

__all__ = [
    "DEPTH",
    "DOCUMENT_BYTES",
    "DOCUMENT_ITEMS",
    "ITEMS",
    "STRING_BYTES",
    "TOTAL_BYTES",
    "bound",
    "cut_text",
    "escape_controls",
    "json_text",
    "persistable",
]

STRING_BYTES = 64 * 1024
ITEMS = 1000
DEPTH = 32
TOTAL_BYTES = 1024 * 1024
DOCUMENT_BYTES = 32 * 1024 * 1024
DOCUMENT_ITEMS = 1_000_000
_SLACK = 64  # a marker's own length: a kept value is not cut again
_NON_FINITE = {math.inf: "Infinity", -math.inf: "-Infinity"}
_INT_BITS = 256  # beyond this an integer is kept as its size: str() of 10**5000 raises
_CONTROLS: dict[str, re.Pattern[str]] = {}


def escape_controls(text: str, *, keep: str = "\t\n") -> str:
    """`text` with each C0 control character, DEL and C1 control (U+0080-U+009F) written
    visibly as its JSON escape (`\\u001b` for ESC, `\\u009b` for CSI), but those in `keep`
    (tab and newline by default; "" in an attribute value): the form the console shows a
    target's text in, and, inside a JSON string, an escape that reads back as the same
    character."""
    pattern = _CONTROLS.get(keep)
    if pattern is None:
        pattern = _CONTROLS[keep] = re.compile(
            "["
            + "".join(
                f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if chr(c) not in keep
            )
            + "]"
        )
    return pattern.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def cut_text(text: str, limit: int = STRING_BYTES) -> str:
    """`text` cut to `limit` bytes of UTF-8, ending in "… (N bytes cut)" if it was cut."""
    if len(text) <= limit // 4 + _SLACK:
        return text  # short enough whatever its encoding: skip encoding it
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit + _SLACK:
        return text
    kept = data[:limit].decode("utf-8", "ignore")
    return f"{kept}… ({len(data) - len(kept.encode('utf-8', 'surrogatepass'))} bytes cut)"


class _Budget:
    """What is left of `TOTAL_BYTES` while one value is bounded, and the depth allowed."""

    def __init__(self, total: int, depth: int) -> None:
        self.left = total
        self.depth = depth

    def take(self, text: str, limit: int) -> str:
        kept = cut_text(text, max(0, min(limit, self.left)))
        self.left -= min(len(kept), self.left)
        return kept


def bound(
    value: Any,
    *,
    string_bytes: int = STRING_BYTES,
    items: int = ITEMS,
    depth: int = DEPTH,
    total_bytes: int = TOTAL_BYTES,
) -> Any:
    """A copy of `value` that is plain, finite JSON of bounded size (see the module)."""
    return _bound(value, _Budget(total_bytes, depth), string_bytes, items, depth)


def _bound(value: Any, budget: _Budget, limit: int, items: int, depth: int) -> Any:
    if isinstance(value, str):
        return budget.take(value, limit)
    if (
        value is None
        or isinstance(value, bool)
        or (isinstance(value, int) and value.bit_length() <= _INT_BITS)
    ):
        return value
    if isinstance(value, int):
        return budget.take(f"(an integer of {value.bit_length()} bits, not kept)", limit)
    if isinstance(value, float):
        return value if math.isfinite(value) else _NON_FINITE.get(value, "NaN")
    if not isinstance(value, dict | list | tuple):
        return budget.take("(absent)" if value is ABSENT else scrub_text(repr(value)), limit)
    if depth <= 0 or budget.left <= 0:
        return f"… ({len(value)} {'members' if isinstance(value, dict) else 'entries'} cut" + (
            f", nested deeper than {budget.depth} levels)" if depth <= 0 else ")"
        )
    if isinstance(value, dict):
        return _bound_object(value, budget, limit, items, depth)
    entries = list(value)
    kept = [_bound(e, budget, limit, items, depth - 1) for e in _first(entries, items)]
    if len(kept) < len(entries):
        kept.append(f"… ({len(entries) - len(kept)} entries cut)")
    return kept


def _first(entries: list[Any], items: int) -> list[Any]:
    return entries if len(entries) <= items + 1 else entries[:items]


def _bound_object(
    value: dict[Any, Any], budget: _Budget, limit: int, items: int, depth: int
) -> dict[str, Any]:
    members = list(value.items())
    kept = {
        budget.take(str(k), limit): _bound(v, budget, limit, items, depth - 1)
        for k, v in _first(members, items)
    }
    if len(kept) < len(members):
        kept["…"] = f"({len(members) - len(kept)} members cut)"
    return kept


def persistable(value: Any, *, document: bool = False) -> Any:
    """`value` as refold may keep it: scrubbed (`scrub`), then bounded (`bound`).

    A record (a failure, a replay) is bounded by the defaults; a `document` (results, a
    mutation or coverage result) holds many records, each bounded when it was made, and
    long lists of its own (mutants, lines), so it is bounded by `DOCUMENT_BYTES` and
    `DOCUMENT_ITEMS` instead."""
    scrubbed = scrub(value, text=_scrub_head)
    if document:
        return bound(scrubbed, items=DOCUMENT_ITEMS, total_bytes=DOCUMENT_BYTES)
    return bound(scrubbed)


def _scrub_head(text: str) -> str:
    """`scrub_text` of the part of `text` that `bound` can keep; the rest it cuts anyway.

    (A hostile target's 100 MB string is not scanned for credentials that are cut.)"""
    head = 4 * STRING_BYTES
    if len(text) <= head:
        return scrub_text(text)
    cleaned = scrub_text(text[:head])
    if len(cleaned) < 2 * STRING_BYTES:  # scrubbing shortened it so far the tail could show
        return scrub_text(text)
    return cleaned + text[head:]


def json_text(value: Any, *, indent: int | None = 1) -> str:
    """A document scrubbed, bounded (`persistable(document=True)`) and written as JSON
    text: UTF-8, no bare NaN, no raw control character (DEL and C1 escaped as `\\u0080`)."""
    # JSON escapes every C0 control inside a string and writes none outside one (but the
    # indent's line breaks), so what is left to escape is DEL and C1, inside strings only.
    return (
        escape_controls(
            json.dumps(
                persistable(value, document=True),
                indent=indent,
                ensure_ascii=False,
                allow_nan=False,
            )
        )
        + "\n"
    )
