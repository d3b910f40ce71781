"""Lossless event splits of a known response: `fold(event_splits(r)) == r`.

The stream is built in the order OpenAI sends it: `response.created` and
`response.in_progress` with the envelope (`lifecycle_response`), each item's events one
after another in `output_index` order (`_items.item_events`, mixed per item), the
terminal event with the whole response, or with its `output` left out (families 2 and
4); family 7 adds its noise last, and every event gets its `sequence_number`.
"""

from __future__ import annotations

import copy
from collections.abc import Collection

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference import JSONObject

from .._text import BOOLEANS
from ._claims import FEATURES, check_features
from ._items import item_events, new_style, recovered_status
from ._noise import with_noise

__all__ = ["SPLIT_FAMILIES", "event_splits", "lifecycle_response", "terminal_event"]

SPLIT_FAMILIES: frozenset[int] = frozenset(range(1, 8))
"""The spec's lossless split families, 1 (OpenAI's own shape) to 7 (noise)."""

_TERMINAL_ONLY = ("output", "usage", "incomplete_details", "error", "status")
"""Response keys whose final value only the terminal event carries."""


def lifecycle_response(response: JSONObject, status: str) -> JSONObject:
    """The response of a lifecycle event in OpenAI's shape: the envelope, no output yet,
    null where only the terminal has a value (so RS-ENV-FILL has nothing to supply), and
    no usage (the schema types it as an object, not null)."""
    envelope = {
        key: copy.deepcopy(value) for key, value in response.items() if key not in _TERMINAL_ONLY
    }
    envelope.update(status=status, output=[], incomplete_details=None, error=None)
    return envelope


def terminal_event(response: JSONObject) -> JSONObject:
    """The terminal event of `response`'s status with the whole response."""
    return {"type": f"response.{response['status']}", "response": copy.deepcopy(response)}


@st.composite
def event_splits(
    draw: st.DrawFn,
    response: JSONObject,
    *,
    families: Collection[int] = SPLIT_FAMILIES,
    features: Collection[str] = frozenset(FEATURES),
) -> list[JSONObject]:
    """Draw an event stream whose fold is exactly `response` (canonical comparison).

    `response` is a value drawn by `responses()`. The stream is drawn from the given
    lossless split families of the spec, mixed per item: family 1, OpenAI's own shape,
    is the base, and each other family adds its shapes (2 terminal output omitted,
    3 `.done`-only items, 4 deltas-only items, 5 rotating or missing item ids, 6 orphan
    content events, 7 noise). `features` gates family 7's kinds of noise (keepalives,
    unknown events and keys need `robustness`).
    """
    unknown = sorted(set(families) - SPLIT_FAMILIES)
    if unknown or not families:
        raise InvalidArgument(f"families={sorted(families)!r}: each must be one of 1..7")
    check_features(features)
    omitted = bool({2, 4} & set(families)) and draw(BOOLEANS)
    style = new_style(families, recovered_status(response["status"]), deltas_only=omitted)
    events: list[JSONObject] = [
        {"type": "response.created", "response": lifecycle_response(response, "in_progress")},
        {"type": "response.in_progress", "response": lifecycle_response(response, "in_progress")},
    ]
    for index, item in enumerate(response["output"]):
        events += item_events(draw, index, item, style)
    events.append(_terminal(draw, response, omitted=omitted))
    if 7 in families:
        events = with_noise(draw, events, response, features=features)
    else:
        events = [{**item, "sequence_number": number} for number, item in enumerate(events)]
    event(f"split: {min(len(events), 20)}{'+' if len(events) >= 20 else ''} events")
    return events


def _terminal(draw: st.DrawFn, response: JSONObject, *, omitted: bool) -> JSONObject:
    """The terminal event; families 2 and 4: its `output` absent, `null` or `[]`."""
    terminal = terminal_event(response)
    if omitted:
        how = draw(st.sampled_from(["absent", "null", "empty"]))
        if how == "absent":
            del terminal["response"]["output"]
        else:
            terminal["response"]["output"] = None if how == "null" else []
    return terminal
