"""Anthropic Messages streams as an events adapter's input (events.md §4.3):
refold.strategies.events draws them from here."""

from __future__ import annotations

from hypothesis import strategies as st

from refold.reference import JSONObject
from refold.reference.anthropic import FEATURES

from .._frame_sources import FrameSource
from . import event_splits, event_streams, messages, round_trips

__all__ = ["FRAME_SOURCE"]

_FEATURES = frozenset(FEATURES) - {"lifecycle", "sse"}
"""Every Anthropic feature but lifecycle (no events after message_stop) and sse."""


def _splits(message: JSONObject) -> st.SearchStrategy[list[JSONObject]]:
    return event_splits(message, late_events=False)


FRAME_SOURCE = FrameSource(
    name="anthropic-messages",
    round_trips=round_trips,
    result=messages,
    splits=_splits,
    damaged=event_streams,
    features=_FEATURES,
)
"""The Anthropic strategies, as an events adapter is fed them."""
