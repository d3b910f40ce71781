"""Hypothesis strategies for OpenAI Responses event streams (refold.strategies.responses).

Two stages, as the spec's round-trip property reads (`responses-fold.md`): draw a known
final `Response`, then an event stream that folds back to it.

    >>> from hypothesis import given
    >>> from refold.strategies.responses import event_splits, responses
    >>> @given(responses(features={"text", "tool_calls"}).flatmap(
    ...     lambda r: event_splits(r).map(lambda events: (r, events))))
    ... def test_round_trip(case): ...

`event_streams()` draws damaged streams for differential checks against the reference
fold, `lifecycle_events()` single events for driving an incremental fold step by step, and
`sse_bytes()` the bytes of a stream as a server sends them. What a target is sent
follows the features it claims through one table, `SHAPES` (`allows(shape, features)`,
`families_for(features)`).
"""

from ._claims import FEATURES, SHAPES, allows, families_for
from ._lifecycle import lifecycle_events
from ._responses import HOSTED_TYPES, STATUSES, responses
from ._splits import SPLIT_FAMILIES, event_splits
from ._streams import event_streams, round_trips
from .wire import event_name, sse_bytes

__all__ = [
    "FEATURES",
    "HOSTED_TYPES",
    "SHAPES",
    "SPLIT_FAMILIES",
    "STATUSES",
    "allows",
    "event_name",
    "event_splits",
    "event_streams",
    "families_for",
    "lifecycle_events",
    "responses",
    "round_trips",
    "sse_bytes",
]
