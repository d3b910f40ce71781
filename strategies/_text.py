"""Strings, identities, JSON arguments, and the cut points that split them.

Text is drawn where streams break: astral characters, combining marks, newlines, U+2028,
quotes and backslashes, so a target that trims, normalises or re-escapes shows it.
Splits are drawn as sets of cut points, which shrink toward "no cut": one fragment;
what goes between the pieces (`scattered`) toward all of it first.
"""

from __future__ import annotations

import itertools
import json
import string
from collections.abc import Sequence
from functools import cache
from typing import TypeVar

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

__all__ = [
    "BOOLEANS",
    "argument_texts",
    "below",
    "cut",
    "escape_positions",
    "identities",
    "json_objects",
    "pieces_of",
    "scattered",
    "texts",
]

T = TypeVar("T")

BOOLEANS = st.booleans()
"""One shared instance: Hypothesis validates each strategy object on its first draw."""


@cache
def below(count: int) -> st.SearchStrategy[int]:
    """Integers in `0..count-1` (cached: strategies here are drawn from in loops)."""
    return st.integers(0, count - 1)


_HAZARDS = (
    "\U0001f600",  # astral: one code point, two UTF-16 units, four UTF-8 bytes
    "\U0001d11e",
    "e\u0301",  # combining mark: NFC would merge it
    "\u2028",  # valid in JSON, a line terminator in older JavaScript
    "\u2029",
    "\n",
    "\r\n",
    "\t",
    '"',
    "\\",
    "\x00",
    " ",
    "\u00e9",
    "\u4e2d",
    "\ufeff",
)
"""Characters and pairs that folds, JSON encoders and SSE decoders get wrong."""

_hazard_characters = st.one_of(st.sampled_from(_HAZARDS), st.characters(codec="utf-8"))


@cache
def texts(*, min_size: int = 0, max_size: int = 10) -> st.SearchStrategy[str]:
    """Unicode text, biased toward the characters streaming folds mishandle."""
    plain = st.text(st.characters(codec="utf-8"), min_size=min_size, max_size=max_size)
    hazard = st.lists(_hazard_characters, min_size=min_size, max_size=max(min_size, 8))
    return st.one_of(plain, hazard.map("".join))


@cache
def identities(prefix: str) -> st.SearchStrategy[str]:
    """Non-blank identity strings (ids, names, models) such as `call_a1`."""
    suffix = st.text(string.ascii_letters + string.digits + "-_", min_size=1, max_size=6)
    return suffix.map(lambda s: prefix + s)


_json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    texts(max_size=6),
)

_json_values: st.SearchStrategy[JSON] = st.recursive(
    _json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(texts(max_size=5), inner, max_size=3)
    ),
    max_leaves=4,
)


@cache
def json_objects(*, max_size: int = 3) -> st.SearchStrategy[JSONObject]:
    """JSON objects as tool arguments carry them: nested, non-ASCII keys and values."""
    return st.dictionaries(texts(max_size=6), _json_values, max_size=max_size)


def argument_texts() -> st.SearchStrategy[str]:
    """Complete tool arguments: one JSON object serialised as an SDK or a model would,
    with or without `\\uXXXX` escapes, compact or spaced, maybe padded with whitespace."""
    return _ARGUMENT_TEXTS


@st.composite
def _argument_texts(draw: st.DrawFn) -> str:
    value = draw(json_objects())
    text = json.dumps(
        value,
        ensure_ascii=draw(BOOLEANS),
        separators=draw(_SEPARATORS),
    )
    if draw(BOOLEANS):
        text += draw(_PADDING)
    return text


_SEPARATORS = st.sampled_from([(",", ":"), (", ", ": ")])
_PADDING = st.sampled_from(["\n", " ", "\t\n"])
_ARGUMENT_TEXTS = _argument_texts()


def escape_positions(text: str) -> list[int]:
    """Cut positions inside a JSON escape sequence (after the backslash): the positions
    where a fold that decodes fragments one by one breaks."""
    positions: list[int] = []
    index = text.find("\\")
    while index != -1 and index + 1 < len(text):
        length = 6 if text[index + 1] == "u" else 2
        positions.extend(range(index + 1, min(index + length, len(text))))
        index = text.find("\\", index + length)
    return positions


def cut(
    draw: st.DrawFn, length: int, *, max_cuts: int = 6, favour: Sequence[int] = ()
) -> list[int]:
    """Draw sorted cut points for a value of `length` items: no cut is one piece.

    `favour` lists positions worth cutting at (inside escapes); they are drawn from
    only behind a branch the shrinker drops, and so are repeated points, which make
    empty pieces."""
    if length < 2:
        points: set[int] = set()
    elif favour and bool(draw(BOOLEANS)):
        points = draw(st.sets(st.sampled_from(favour) | _cut_points(length), max_size=max_cuts))
    else:
        points = draw(_cut_sets(length, max_cuts))
    cuts = sorted(points)
    if draw(BOOLEANS):  # empty fragments: repeated cut points
        cuts = sorted(cuts + draw(_empty_cuts(length)))
    return cuts


@cache
def _cut_points(length: int) -> st.SearchStrategy[int]:
    return st.integers(1, length - 1)


@cache
def _cut_sets(length: int, max_cuts: int) -> st.SearchStrategy[set[int]]:
    return st.sets(_cut_points(length), max_size=max_cuts)


@cache
def _empty_cuts(length: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, length), min_size=1, max_size=2)


def pieces_of(value: Sequence[T], cuts: Sequence[int]) -> list[Sequence[T]]:
    """Split `value` at sorted `cuts` (repeats make empty pieces)."""
    bounds = [0, *cuts, len(value)]
    return [value[a:b] for a, b in itertools.pairwise(bounds)]


def scattered(draw: st.DrawFn, items: list[T], extras: list[T]) -> list[T]:
    """`items` with `extras` put among them in order, each at a drawn place (several may
    share one; the simplest draw puts them all first)."""
    slots = sorted(draw(below(len(items) + 1)) for _ in extras)
    merged: list[T] = []
    position = 0
    for extra, slot in zip(extras, slots, strict=True):
        merged += items[position:slot]
        position = max(position, slot)
        merged.append(extra)
    return merged + items[position:]
