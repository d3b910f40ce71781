"""Hypothesis strategies for Gemini `streamGenerateContent` streams (refold.strategies.gemini).

Two stages, as the spec's round-trip property reads (`gemini-fold.md`): draw a known
final `GenerateContentResponse`, then a chunk stream that folds back to it.

    >>> from hypothesis import given
    >>> from refold.strategies.gemini import round_trips
    >>> @given(round_trips(features={"text", "thinking", "tool_calls"}))
    ... def test_round_trip(case): ...

`chunk_streams()` draws damaged streams for differential checks against the reference
fold, `lifecycle_chunks()` single chunks for driving an incremental fold step by step,
and `sse_bytes()` / `array_bytes()` the bytes of a stream in the two framings. What a
target is sent follows the features it claims through one table, `SHAPES`.
"""

from ._claims import FEATURES, SHAPES, allows, families_for
from ._lifecycle import lifecycle_chunks
from ._responses import (
    BLOCK_REASONS,
    DOCUMENTED_FINISH_REASONS,
    FINISH_REASONS,
    HARM_CATEGORIES,
    responses,
    usages,
)
from ._splits import SPLIT_FAMILIES, Family, chunk_splits
from ._streams import chunk_streams, round_trips
from .wire import array_bytes, sse_bytes

__all__ = [
    "BLOCK_REASONS",
    "DOCUMENTED_FINISH_REASONS",
    "FEATURES",
    "FINISH_REASONS",
    "HARM_CATEGORIES",
    "SHAPES",
    "SPLIT_FAMILIES",
    "Family",
    "allows",
    "array_bytes",
    "chunk_splits",
    "chunk_streams",
    "families_for",
    "lifecycle_chunks",
    "responses",
    "round_trips",
    "sse_bytes",
    "usages",
]
