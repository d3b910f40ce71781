"""Lossless streams of small responses, for the properties whose subject is the events
added to a stream, not the response (suite-private).

`round_trips` draws responses of up to four items; the robustness and SSE properties add
their noise or framing to every event, so two items show everything they check (an item
before and after the noise, two output indexes) at about half the cost per example.
"""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st

from refold.reference import JSONObject
from refold.strategies.responses import event_splits, families_for, responses

__all__ = ["small_streams"]

_MAX_ITEMS = 2


@st.composite
def _streams(draw: st.DrawFn, features: frozenset[str]) -> list[JSONObject]:
    families = families_for(features)
    response = draw(
        responses(features=features, max_items=_MAX_ITEMS, bare_calls=5 in families),
        label="response",
    )
    events: list[JSONObject] = draw(
        event_splits(response, families=families, features=features), label="stream"
    )
    return events


@cache
def small_streams(features: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    """A lossless stream of a response of at most two items with `features`, of every
    split family those features are judged on."""
    return _streams(features)
