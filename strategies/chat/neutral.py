"""OpenAI Chat Completions streams as an events adapter's input (events.md §4.1):
refold.strategies.events draws them from here. A stream gets its `"[DONE]"` sentinel most
of the time: without it the body ended after the last chunk (EV-CHAT-EOF)."""

from __future__ import annotations

from refold.reference.chat import FEATURES

from .._frame_sources import FrameSource
from . import chunk_splits, chunk_streams, completions, round_trips

__all__ = ["FRAME_SOURCE"]

_FEATURES = frozenset(FEATURES) - {"choices", "lifecycle", "sse", "events"}
"""Every chat feature a single-choice stream can carry (several choices may be refused,
EV-CHOICE0; lifecycle, sse and events are not an adapter's)."""

FRAME_SOURCE = FrameSource(
    name="openai-chat",
    round_trips=round_trips,
    result=completions,
    splits=chunk_splits,
    damaged=chunk_streams,
    features=_FEATURES,
    sentinel=True,
    fingerprint=True,
)
"""Chat's strategies, as an events adapter is fed them."""
