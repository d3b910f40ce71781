"""The events of one content block, by split family: each family is a short function.

`block_events(draw, index, block, families)` returns the `content_block_start`, the
deltas and the `content_block_stop` of one block; which family shapes it uses is drawn
per block among `families`, so a stream mixes them. Family 1 (Anthropic's own shape) is
the fallback of every block and the simplest: empty initial value, one delta per field,
the stop.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection
from dataclasses import dataclass

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from .._text import BOOLEANS, cut, escape_positions, pieces_of, scattered
from ._messages import TOOL_TYPES

__all__ = ["block_events", "delta_event", "start_event", "stop_event"]


def start_event(index: int, block: JSONObject) -> JSONObject:
    return {"type": "content_block_start", "index": index, "content_block": block}


def delta_event(index: int, delta: JSONObject) -> JSONObject:
    return {"type": "content_block_delta", "index": index, "delta": delta}


def stop_event(index: int) -> JSONObject:
    return {"type": "content_block_stop", "index": index}


def block_events(
    draw: st.DrawFn, index: int, block: JSONObject, families: Collection[int]
) -> list[JSONObject]:
    """The events of block `index`, whose fold is exactly `block`."""
    kind = block["type"]
    if kind == "text":
        start, deltas = _text(draw, block, families)
    elif kind in TOOL_TYPES:
        start, deltas = _tool(draw, block, families)
    elif kind == "thinking":
        start, deltas = _thinking(draw, block, families)
    else:
        start, deltas = _whole_on_start(block)
    return [start_event(index, start), *(delta_event(index, d) for d in deltas), stop_event(index)]


def _whole_on_start(block: JSONObject) -> tuple[JSONObject, list[JSONObject]]:
    """Family 6 (and family 1 for these blocks): the block complete, no delta."""
    return dict(block), []


def _text(
    draw: st.DrawFn, block: JSONObject, families: Collection[int]
) -> tuple[JSONObject, list[JSONObject]]:
    text = block["text"]
    prefix = ""
    pieces = [text] if text else []
    if 2 in families and draw(BOOLEANS):
        prefix, pieces = _text_pieces(draw, text)
    deltas: list[JSONObject] = [{"type": "text_delta", "text": p} for p in pieces]
    citations = [{"type": "citations_delta", "citation": c} for c in block.get("citations", [])]
    if 5 in families and bool(citations) and draw(BOOLEANS):
        deltas = scattered(draw, deltas, citations)
    else:
        deltas += citations
    return {"type": "text", "text": prefix}, deltas


def _text_pieces(draw: st.DrawFn, text: str) -> tuple[str, list[str]]:
    """Family 2: split at any code point, empty fragments allowed, maybe a prefix on
    the start event."""
    pieces = [str(p) for p in pieces_of(text, cut(draw, len(text)))]
    prefix = pieces.pop(0) if bool(pieces) and draw(BOOLEANS) else ""
    return prefix, pieces


def _thinking(
    draw: st.DrawFn, block: JSONObject, families: Collection[int]
) -> tuple[JSONObject, list[JSONObject]]:
    """Family 1, or family 4: thinking split anywhere; then one signature_delta."""
    thinking = block["thinking"]
    pieces = [thinking] if thinking else []
    if 4 in families and draw(BOOLEANS):
        pieces = [str(p) for p in pieces_of(thinking, cut(draw, len(thinking)))]
    deltas: list[JSONObject] = [{"type": "thinking_delta", "thinking": p} for p in pieces]
    deltas.append({"type": "signature_delta", "signature": block["signature"]})
    # the SDK's ThinkingBlock requires `signature`: the API starts it empty (the docs'
    # example leaves it out, AMD-THINKING-UNSIGNED-START)
    return {"type": "thinking", "thinking": "", "signature": ""}, deltas


def _tool(
    draw: st.DrawFn, block: JSONObject, families: Collection[int]
) -> tuple[JSONObject, list[JSONObject]]:
    """Family 1: input `{}` on the start, the compact JSON in one delta; family 3: any
    JSON text of the input split anywhere, or the whole input on the start."""
    value = block["input"]
    start = {**block, "input": {}}
    if 3 not in families or not draw(BOOLEANS):
        return start, [_partial(json.dumps(value, ensure_ascii=False, separators=(",", ":")))]
    if draw(BOOLEANS):  # [ext] whole input on the start event, nothing or "" after it
        empties = draw(st.integers(0, 2))
        return {**block}, [_partial("") for _ in range(empties)]
    text = draw(_json_texts(value))
    pieces = pieces_of(text, cut(draw, len(text), favour=escape_positions(text)))
    deltas = [_partial(str(p)) for p in pieces]
    if draw(BOOLEANS):  # the docs' leading empty fragment
        deltas.insert(0, _partial(""))
    return start, deltas


def _partial(text: str) -> JSONObject:
    return {"type": "input_json_delta", "partial_json": text}


@st.composite
def _json_texts(draw: st.DrawFn, value: JSONObject) -> str:
    """Any JSON text that parses to `value`: key order, `\\uXXXX` and `\\/` escapes,
    number spellings (`1.0`, `1e0`), spacing and padding."""
    if draw(BOOLEANS):
        value = _shuffled(value, random.Random(draw(st.integers(0, 2**16))))
    style = _Style(
        ensure_ascii=draw(BOOLEANS),
        separators=draw(_SEPARATORS),
        solidus=draw(BOOLEANS),
        number=draw(st.sampled_from(["", ".0", "e0"])),
    )
    padding = st.sampled_from(["", " ", "\n", "\t\r\n "])
    return draw(padding) + _encoded(value, style) + draw(padding)


_SEPARATORS = st.sampled_from([(",", ":"), (", ", ": "), (",\n  ", " : ")])


@dataclass(frozen=True)
class _Style:
    """How `_encoded` spells a JSON value; every style parses back to the same value."""

    ensure_ascii: bool
    separators: tuple[str, str]  # between members, between a key and its value
    solidus: bool  # "/" written as the legal escape "\\/"
    number: str  # suffix spelling an integer differently: "1.0", "1e0"


def _encoded(value: JSON, style: _Style) -> str:
    comma, colon = style.separators
    if isinstance(value, dict):
        members = (
            _string(key, style) + colon + _encoded(item, style) for key, item in value.items()
        )
        return "{" + comma.join(members) + "}"
    if isinstance(value, list):
        return "[" + comma.join(_encoded(item, style) for item in value) + "]"
    if isinstance(value, str):
        return _string(value, style)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value) + style.number
    return json.dumps(value)


def _string(text: str, style: _Style) -> str:
    encoded = json.dumps(text, ensure_ascii=style.ensure_ascii)
    return encoded.replace("/", "\\/") if style.solidus else encoded


def _shuffled(value: JSON, rng: random.Random) -> JSONObject:
    """`value` with the keys of every object in a shuffled order (same JSON value)."""

    def walk(item: JSON) -> JSON:
        if isinstance(item, dict):
            keys = list(item)
            rng.shuffle(keys)
            return {key: walk(item[key]) for key in keys}
        if isinstance(item, list):
            return [walk(entry) for entry in item]
        return item

    result = walk(value)
    assert isinstance(result, dict)
    return result
