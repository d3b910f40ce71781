"""Drawn values use only claimed features: a response, its split and a damaged stream
never hold a key, a part kind or a damage whose rules belong to a feature the target does
not claim; the `SHAPES` and `SPLIT_FAMILIES` tables name only the spec's vocabulary."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refold.reference.gemini import FEATURES, Accumulator
from refold.strategies.gemini import (
    SHAPES,
    SPLIT_FAMILIES,
    chunk_streams,
    lifecycle_chunks,
    responses,
    round_trips,
)

_SLOW = settings(deadline=None)
_any_features = st.sets(st.sampled_from(FEATURES)).map(lambda f: frozenset(f | {"text"}))

_KEYS_BY_FEATURE = {
    "thinking": {"thought", "thoughtSignature"},
    "tool_calls": {"functionCall"},
    "streamed_arguments": {"partialArgs", "willContinue"},
    "code_execution": {"executableCode", "codeExecutionResult"},
    "media": {"inlineData", "fileData"},
    "safety": {"safetyRatings", "promptFeedback"},
    "citations": {"citationMetadata"},
    "grounding": {"groundingMetadata"},
    "usage": {"usageMetadata"},
    "robustness": {"partMetadata"},
    "lifecycle": {"error"},
}
"""Keys only a stream judged on the feature may hold (no drawn argument name is longer
than six characters, so none of these occurs inside call arguments by chance)."""


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _used(value: Any) -> set[str]:
    keys = set(_keys(value))
    used = {feature for feature, names in _KEYS_BY_FEATURE.items() if keys & names}
    if any(key.startswith("futureField") for key in keys):
        used.add("robustness")
    return used


def _indexes(chunks: list[Any]) -> set[Any]:
    return {
        entry.get("index", 0)
        for chunk in chunks
        if isinstance(chunk, dict) and isinstance(chunk.get("candidates"), list)
        for entry in chunk["candidates"]
        if isinstance(entry, dict)
    }


@given(data=st.data())
@_SLOW
def test_a_round_trip_holds_only_claimed_features(data: st.DataObject) -> None:
    features = data.draw(_any_features)
    response, chunks = data.draw(round_trips(features=features))
    assert _used(response) <= features
    assert _used(chunks) <= features
    if "candidates" not in features:
        assert len(response.get("candidates", [])) <= 1
        assert _indexes(chunks) <= {0}


@given(data=st.data())
@_SLOW
def test_a_damaged_stream_holds_only_claimed_features(data: st.DataObject) -> None:
    features = data.draw(_any_features)
    chunks = data.draw(chunk_streams(features=features))
    assert _used(chunks) <= features
    if "robustness" not in features:
        assert all(isinstance(chunk, dict) for chunk in chunks)
    if "lifecycle" not in features:
        assert not any("error" in chunk for chunk in chunks)


@given(data=st.data())
@_SLOW
def test_a_lifecycle_chunk_holds_only_claimed_features(data: st.DataObject) -> None:
    features = data.draw(_any_features)
    chunk = data.draw(lifecycle_chunks(features=features))
    assert _used(chunk) - {"lifecycle"} <= features
    if "robustness" not in features:
        assert isinstance(chunk, dict)


@given(responses(features={"text"}))
@_SLOW
def test_a_text_only_response_is_one_candidate_of_text_runs(response: dict[str, Any]) -> None:
    (candidate,) = response["candidates"]
    assert all(set(part) == {"text"} for part in candidate["content"]["parts"])


@given(chunk_streams())
@_SLOW
def test_a_damaged_stream_folds_without_raising(chunks: list[Any]) -> None:
    accumulator = Accumulator()
    for chunk in chunks:
        accumulator.add(chunk)
    accumulator.response()


def test_every_shape_names_features_of_the_vocabulary() -> None:
    for shape, needed in SHAPES.items():
        assert needed <= set(FEATURES), shape


@pytest.mark.parametrize("family", sorted(SPLIT_FAMILIES))
def test_every_family_names_its_class_and_source(family: int) -> None:
    entry = SPLIT_FAMILIES[family]
    assert entry.shape in {"documented", "observed", "synthetic"}
    assert entry.summary and entry.source
    assert f"family {family}" in SHAPES


@given(data=st.data())
@_SLOW
def test_every_drawn_value_is_json(data: st.DataObject) -> None:
    response, chunks = data.draw(round_trips())
    damaged = data.draw(chunk_streams())
    for value in (response, chunks, damaged):
        text = json.dumps(value, allow_nan=False)
        assert json.loads(text) == value
