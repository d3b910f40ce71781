"""Hypothesis strategies for Anthropic Messages streams (refold.strategies.anthropic).

The spec's round-trip property (`anthropic-fold.md`) in two draws: a final `Message`
whose blocks are the claimed features' (`messages`), then the `message_start`, block
and `message_delta` events that fold back to it, split in any of the spec's families
(`event_splits`; `round_trips` draws both).

    >>> from hypothesis import given
    >>> from refold.strategies.anthropic import round_trips
    >>> @given(round_trips(features={"text", "tool_use"}, families={1, 2, 3}))
    ... def test_round_trip(case): message, events = case

Differential checks draw damaged streams from `event_streams()` (cut short, blocks
interleaved or reopened, deltas of the wrong type...); the lifecycle machine draws one
event at a time from `lifecycle_events()`; `sse_bytes()` frames events with or without
their `event:` names, as Anthropic and its proxies send them. Each draws only what the
target claims, through the table `SHAPES` (`allows(shape, features)`,
`families_for(features)`).
"""

from ._claims import FEATURES, SHAPES, allows, families_for
from ._lifecycle import lifecycle_events
from ._messages import STOP_REASONS, messages
from ._splits import SPLIT_FAMILIES, event_splits
from ._streams import event_streams, round_trips
from .wire import event_name, sse_bytes

__all__ = [
    "FEATURES",
    "SHAPES",
    "SPLIT_FAMILIES",
    "STOP_REASONS",
    "allows",
    "event_name",
    "event_splits",
    "event_streams",
    "families_for",
    "lifecycle_events",
    "messages",
    "round_trips",
    "sse_bytes",
]
