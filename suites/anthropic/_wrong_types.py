"""Streams with fields of the wrong JSON type, paired with the same streams without those
fields, for the robustness suite (suite-private).

AM-ROB-WRONG-TYPE reads a field of the wrong JSON type as absent, so `wrong_typed_streams`
draws `(damaged, cleaned)`: a lossless stream in which some fields the fold reads are given
a value of another JSON type, and the same stream with those fields removed; the two fold
alike. Only fields whose absence the spec defines are made wrong: not a block's `type` (an
untyped block is kept as sent, with whatever it holds), not `message_start`'s own stop
reason or usage counts (the Message starts as a copy of that object), not a tool block's
start `input`.
"""

from __future__ import annotations

import copy
from collections.abc import Collection

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.strategies.anthropic import allows, families_for, round_trips

from .._json_values import SCALARS_FOR_EVENTS, WRONG_FOR_EVENTS

__all__ = ["wrong_typed_streams"]

Path = tuple[str, ...]

_WRONG: dict[str, st.SearchStrategy[JSON]] = {
    **WRONG_FOR_EVENTS,
    "string or null": (
        st.booleans()
        | st.integers()
        | st.lists(SCALARS_FOR_EVENTS, max_size=2)
        | st.dictionaries(st.text(max_size=2), SCALARS_FOR_EVENTS, max_size=2)
    ),
    "number": (
        st.none()
        | st.booleans()
        | st.sampled_from(["12", "", "1e3"])
        | st.lists(st.integers(), max_size=1)
        | st.just({"n": 1})
    ),
    "list": st.none() | st.booleans() | st.integers() | st.text(max_size=3) | st.just({}),
}
"""Values of a JSON type other than the one each kind of field must hold (null included:
a null field is absent too). Indexes are made wrong from their own value (`_wrong_index`)."""


def _wrong_index(index: JSON) -> st.SearchStrategy[JSON]:
    """Values a careless fold reads as `index`: its string, a bool equal to it in Python,
    a fraction next to it, a negative number, a list holding it; or null."""
    number = index if isinstance(index, int) else 0
    lookalikes: list[JSON] = [
        str(number),
        f" {number}",
        number + 0.5,
        -1 - number,
        [number],
        {"index": number},
        None,
    ]
    if number in (0, 1):
        lookalikes.append(bool(number))
    return st.sampled_from(lookalikes)


_DELTA_FIELDS: dict[str, tuple[str, str]] = {
    "text_delta": ("text", "string"),
    "input_json_delta": ("partial_json", "string"),
    "thinking_delta": ("thinking", "string"),
    "signature_delta": ("signature", "string"),
    "citations_delta": ("citation", "object"),
}
_START_FIELDS = {"text": "text", "thinking": "thinking"}
_USAGE_KINDS = {
    "input_tokens": "number",
    "output_tokens": "number",
    "cache_creation_input_tokens": "number",
    "cache_read_input_tokens": "number",
    "server_tool_use": "object",
    "cache_creation": "object",
    "service_tier": "string",
}


def _slots(event: JSONObject, features: Collection[str]) -> list[tuple[Path, str]]:
    """The fields of `event` that may be made wrong, each with the kind it must be."""
    kind = event.get("type")
    slots: list[tuple[Path, str]] = []
    if kind in ("content_block_start", "content_block_delta", "content_block_stop"):
        slots.append((("index",), "index"))
    if kind == "content_block_start":
        slots.append((("content_block",), "object"))
        block_type = str(event["content_block"].get("type"))
        if block_type in _START_FIELDS:
            slots.append((("content_block", _START_FIELDS[block_type]), "string"))
    elif kind == "content_block_delta":
        slots.append((("delta",), "object"))
        field = _DELTA_FIELDS.get(str(event["delta"].get("type")))
        if field is not None:
            slots.append((("delta", field[0]), field[1]))
    elif kind == "message_delta":
        slots += _message_delta_slots(event, features)
    elif kind == "message_start":
        slots.append((("message", "content"), "list"))
        if "usage" in event["message"]:
            slots.append((("message", "usage"), "object"))
    return slots


def _message_delta_slots(event: JSONObject, features: Collection[str]) -> list[tuple[Path, str]]:
    slots: list[tuple[Path, str]] = [
        (("delta",), "object"),
        (("delta", "stop_reason"), "string"),
        (("delta", "stop_sequence"), "string or null"),
    ]
    if allows("stop_details", features):
        slots += [(("delta", "stop_details"), "object"), (("delta", "container"), "object")]
    if allows("wrong usage types", features):
        slots.append((("usage",), "object"))
        usage = event.get("usage")
        slots += [
            (("usage", key), _USAGE_KINDS[key])
            for key in (usage if isinstance(usage, dict) else ())
            if key in _USAGE_KINDS
        ]
    return slots


def _wronged(
    draw: st.DrawFn, damaged: JSONObject, cleaned: JSONObject, path: Path, kind: str
) -> None:
    """Give the field at `path` of `damaged` a wrong value and remove it from `cleaned`
    (both copies of one event; a field already wrong in both stays consistent)."""
    *parents, last = path
    for key in parents:
        inner, inner_cleaned = damaged.get(key), cleaned.get(key)
        if not (isinstance(inner, dict) and isinstance(inner_cleaned, dict)):
            return  # an enclosing object was already made wrong: nothing left to change
        damaged, cleaned = inner, inner_cleaned
    damaged[last] = draw(_wrong_index(damaged.get(last)) if kind == "index" else _WRONG[kind])
    cleaned.pop(last, None)


@st.composite
def wrong_typed_streams(
    draw: st.DrawFn, *, features: Collection[str]
) -> tuple[list[JSONObject], list[JSONObject]]:
    """Draw `(damaged, cleaned)`: a lossless stream of the claimed features with one to
    three fields of the wrong JSON type, and the same stream without those fields. A
    wrongly typed `message_start` (its `message` not an object) may come first."""
    _, events = draw(round_trips(features=features, families=families_for(features)))
    damaged, cleaned = copy.deepcopy(events), copy.deepcopy(events)
    places = [
        (number, path, kind)
        for number, event in enumerate(events)
        for path, kind in _slots(event, features)
    ]
    for _ in range(draw(st.integers(1 if places else 0, min(3, len(places))))):
        number, path, kind = draw(st.sampled_from(places))
        _wronged(draw, damaged[number], cleaned[number], path, kind)
    if draw(st.booleans()):
        damaged.insert(0, {"type": "message_start", "message": draw(_WRONG["object"])})
        cleaned.insert(0, {"type": "message_start"})
    return damaged, cleaned
