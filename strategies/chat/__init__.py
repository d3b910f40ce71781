"""Hypothesis strategies for OpenAI Chat Completions streams (refold.strategies.chat).

Two stages, as the spec's round-trip property reads: draw a known completion, then a
chunk stream that folds back to it.

    >>> from hypothesis import given
    >>> from refold.strategies.chat import completions, chunk_splits
    >>> @given(completions(features={"text", "tool_calls"}).flatmap(
    ...     lambda c: chunk_splits(c).map(lambda chunks: (c, chunks))))
    ... def test_round_trip(case): ...

`chunk_streams()` draws streams that need not be lossless, for differential checks,
`lifecycle_chunks()` single chunks for driving an incremental fold, and
`chunk_schema()` / `completion_schema()` are the JSON Schemas every drawn value
validates against. What a target is sent follows the features it claims through one
table, `SHAPES` (`allows(shape, features)`, `families_for(features)`).
"""

from ._claims import SHAPES, allows, families_for
from ._completions import FINISH_REASONS, completions, is_finished, reasoning_details
from ._lifecycle import lifecycle_chunks
from ._schemas import chunk_schema, completion_schema
from ._splits import SPLIT_FAMILIES, chunk_splits, round_trips
from ._streams import chunk_streams

__all__ = [
    "FINISH_REASONS",
    "SHAPES",
    "SPLIT_FAMILIES",
    "allows",
    "chunk_schema",
    "chunk_splits",
    "chunk_streams",
    "completion_schema",
    "completions",
    "families_for",
    "is_finished",
    "lifecycle_chunks",
    "reasoning_details",
    "round_trips",
]
