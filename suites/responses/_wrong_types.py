"""Streams with fields of the wrong JSON type, paired with the same streams without those
fields, for the robustness suite (suite-private).

RS-WRONG-TYPE reads a field of the wrong JSON type as absent, so `wrong_typed_streams`
draws `(damaged, cleaned)`: a lossless stream in which some fields the fold reads on an
event are given a value of another JSON type, and the same stream with those fields
removed; the two fold alike. Only an event's own fields are made wrong, never a key inside
a response or an item (those are kept as sent: RS-TERMINAL-BASE, RS-HOSTED-ITEMS).
"""

from __future__ import annotations

import copy
from collections.abc import Collection

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from .._json_values import WRONG_FOR_EVENTS
from ._draws import small_streams

__all__ = ["FIELDS", "wrong_typed_streams"]

_WRONG: dict[str, st.SearchStrategy[JSON]] = {
    **WRONG_FOR_EVENTS,
    "index": (
        st.none()
        | st.booleans()
        | st.sampled_from(["0", "1", " 0", "", -1, -2, 0.5, 1.5])
        | st.lists(st.integers(0, 2), max_size=1)
        | st.just({"index": 0})
    ),
}
"""Values of a JSON type other than the one each kind of field must hold (null included:
a null field is absent too). An index is a non-negative integral number; a bool is none."""

FIELDS: dict[str, str] = {
    "response": "object",
    "item": "object",
    "part": "object",
    "annotation": "object",
    "delta": "string",
    "text": "string",
    "refusal": "string",
    "arguments": "string",
    "item_id": "string",
    "output_index": "index",
    "content_index": "index",
    "summary_index": "index",
    "annotation_index": "index",
}
"""The event fields the fold reads, by the kind of value each must hold."""


@st.composite
def wrong_typed_streams(
    draw: st.DrawFn, *, features: Collection[str]
) -> tuple[list[JSONObject], list[JSONObject]]:
    """Draw `(damaged, cleaned)`: a lossless stream of the claimed features with one to
    three event fields of the wrong type, and the same stream without those fields."""
    claimed = frozenset(features) - {"robustness", "lifecycle", "sse", "events"}
    events = draw(small_streams(claimed))
    damaged, cleaned = copy.deepcopy(events), copy.deepcopy(events)
    candidates = [
        (number, key)
        for number, event in enumerate(events)
        for key in sorted(event)
        if key in FIELDS
    ]
    if not candidates:
        return damaged, cleaned
    chosen = draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=3, unique=True))
    for number, key in chosen:
        damaged[number][key] = draw(_WRONG[FIELDS[key]])
        del cleaned[number][key]
    return damaged, cleaned
