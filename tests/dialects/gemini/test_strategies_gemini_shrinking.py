"""The strategies shrink toward small readable streams: the simplest response is one
candidate with one short text part and `STOP`, its simplest split is one chunk, and
failures found on a round trip shrink to a few chunks."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import find, settings

from refold.strategies.gemini import (
    FEATURES,
    chunk_splits,
    lifecycle_chunks,
    responses,
    round_trips,
)

_FIND = settings(deadline=None, database=None, max_examples=500)


def _simplest(strategy: Any) -> Any:
    return find(strategy, lambda _: True, settings=_FIND)


def test_the_simplest_response_is_one_candidate_with_one_short_text_part() -> None:
    response = _simplest(responses(features=frozenset(FEATURES)))
    (candidate,) = response["candidates"]
    assert candidate["finishReason"] == "STOP"
    assert candidate["content"] == {"role": "model", "parts": [{"text": "0"}]}
    assert set(response) <= {"candidates", "usageMetadata", "modelVersion", "responseId"}


def test_the_simplest_split_is_one_chunk() -> None:
    response = _simplest(responses())
    (chunk,) = _simplest(chunk_splits(response))
    assert chunk["candidates"][0]["content"]["parts"] == [{"text": "0"}]


def test_the_simplest_round_trip_is_one_small_chunk() -> None:
    _, chunks = _simplest(round_trips())
    assert len(chunks) == 1
    assert len(json.dumps(chunks)) < 300


def test_a_failure_shrinks_to_a_short_stream() -> None:
    # a fold that ignored thoughts: the smallest stream showing it has one thought part
    response, chunks = find(
        round_trips(features={"text", "thinking"}),
        lambda case: any(
            part.get("thought") for c in case[0]["candidates"] for part in c["content"]["parts"]
        ),
        settings=_FIND,
    )
    assert len(chunks) <= 2
    assert len(response["candidates"][0]["content"]["parts"]) <= 2


def test_the_simplest_lifecycle_chunk_is_one_small_object() -> None:
    chunk = _simplest(lifecycle_chunks())
    assert isinstance(chunk, dict)
    assert len(json.dumps(chunk)) < 100
