"""OpenAI Responses streams as an events adapter's input (events.md §4.2):
refold.strategies.events draws them from here."""

from __future__ import annotations

from refold.reference.responses import FEATURES

from .._frame_sources import FrameSource
from . import event_splits, event_streams, responses, round_trips

__all__ = ["FRAME_SOURCE"]

_FEATURES = frozenset(FEATURES) - {"sse", "events"}
"""Every Responses feature but sse and events (an adapter's own): lifecycle for the
damaged streams that end without a terminal (EV-TRUNCATED) or go on after it."""

FRAME_SOURCE = FrameSource(
    name="openai-responses",
    round_trips=round_trips,
    result=responses,
    splits=event_splits,
    damaged=event_streams,
    features=_FEATURES,
)
"""The Responses strategies, as an events adapter is fed them."""
