"""Hypothesis strategies for Anthropic Messages streams (refold.strategies.anthropic).

Two stages, as the spec's round-trip property reads (`anthropic-fold.md`): draw a known
final `Message`, then an event stream that folds back to it.

    >>> from hypothesis import given
    >>> from refold.strategies.anthropic import event_splits, messages
    >>> @given(messages(features={"text", "tool_use"}).flatmap(
    ...     lambda m: event_splits(m).map(lambda events: (m, events))))
    ... def test_round_trip(case): ...

`event_streams()` draws damaged streams for differential checks against the reference
fold, `lifecycle_events()` single events for driving an incremental fold step by step, and
`sse_bytes()` the bytes of a stream as a server sends them. What a target is
sent follows the features it claims through one table, `SHAPES` (`allows(shape,
features)`, `families_for(features)`).
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
