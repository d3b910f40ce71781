"""Gemini splits are lossless: every stream `chunk_splits` draws folds back to its
response on the reference fold, per family and mixed; a drawn response is a fixed point of
the fold; family 1 alone is Google's own shape."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference.gemini import differences, fold
from refold.strategies.gemini import (
    FEATURES,
    SPLIT_FAMILIES,
    chunk_splits,
    families_for,
    responses,
    round_trips,
)

_ALL = frozenset(FEATURES)
_SLOW = settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
_any_features = st.sets(st.sampled_from(FEATURES)).map(lambda f: frozenset(f | {"text"}))


@pytest.mark.parametrize("family", sorted(SPLIT_FAMILIES))
@given(data=st.data())
@_SLOW
def test_each_family_alone_with_the_plain_shape_folds_back_to_its_response(
    family: int, data: st.DataObject
) -> None:
    response = data.draw(responses())
    chunks = data.draw(chunk_splits(response, families={1, family}))
    assert differences(response, fold(chunks)) == []


@given(data=st.data())
@_SLOW
def test_every_mix_of_families_folds_back_to_its_response(data: st.DataObject) -> None:
    families = data.draw(st.sets(st.sampled_from(sorted(SPLIT_FAMILIES)), min_size=1))
    response, chunks = data.draw(round_trips(features=_ALL, families=families))
    assert differences(response, fold(chunks)) == []


@given(data=st.data())
@_SLOW
def test_a_round_trip_of_the_claimed_features_folds_back(data: st.DataObject) -> None:
    response, chunks = data.draw(round_trips(features=data.draw(_any_features)))
    assert differences(response, fold(chunks)) == []


@given(data=st.data())
@_SLOW
def test_streamed_calls_fold_back_to_their_response(data: st.DataObject) -> None:
    features = {"text", "tool_calls", "streamed_arguments"}
    response = data.draw(responses(features=features, max_parts=6))
    chunks = data.draw(chunk_splits(response, families={1, 4}))
    assert differences(response, fold(chunks)) == []


@given(responses())
@_SLOW
def test_a_drawn_response_is_a_fixed_point_of_the_fold(response: dict[str, Any]) -> None:
    assert differences(response, fold([response])) == []


def test_family_4_streams_arguments_as_pieces() -> None:
    features = {"text", "tool_calls", "streamed_arguments"}
    found = find(
        responses(features=features).flatmap(lambda r: chunk_splits(r, families={1, 4})),
        lambda chunks: "partialArgs" in json.dumps(chunks),
        settings=settings(deadline=None, max_examples=2000, database=None),
    )
    assert differences(fold(found), fold(found)) == []


def _plain_shape_holds(response: dict[str, Any], chunks: list[dict[str, Any]]) -> None:
    """Family 1 as the spec writes it: identity on every chunk, promptFeedback on the
    first, the final usage on the last, finishReason on each candidate's last entry."""
    for chunk in chunks:
        assert chunk["modelVersion"] == response["modelVersion"]
        assert chunk["responseId"] == response["responseId"]
    assert all("promptFeedback" not in chunk for chunk in chunks[1:])
    if "usageMetadata" in response:
        assert chunks[-1]["usageMetadata"] == response["usageMetadata"]
    for candidate in response.get("candidates", []):
        entries = [
            entry
            for chunk in chunks
            for entry in chunk.get("candidates", [])
            if entry["index"] == candidate["index"]
        ]
        assert [("finishReason" in entry) for entry in entries][-1]
        assert not any("finishReason" in entry for entry in entries[:-1])
        for entry in entries:
            if "content" in entry:
                assert entry["content"]["role"] == "model"
                assert len(entry["content"]["parts"]) <= 1  # one part per chunk


@given(round_trips(features=_ALL, families={1}))
@_SLOW
def test_family_1_alone_is_googles_own_shape(case: tuple[Any, Any]) -> None:
    _plain_shape_holds(*case)


def test_families_for_follows_the_claims() -> None:
    assert families_for({"text"}) == {1, 2, 3, 5, 6, 7}
    assert families_for(_ALL) == set(SPLIT_FAMILIES)
    assert 4 not in families_for({"text", "tool_calls"})


def test_an_unknown_family_or_feature_is_refused() -> None:
    once = settings(database=None, max_examples=1)
    with pytest.raises(InvalidArgument, match="families"):
        find(chunk_splits({"candidates": []}, families={9}), lambda _: True, settings=once)
    with pytest.raises(InvalidArgument, match="vocabulary"):
        find(round_trips(features={"text", "audio"}), lambda _: True, settings=once)
    with pytest.raises(InvalidArgument, match="must include 'text'"):
        find(responses(features={"usage"}), lambda _: True, settings=once)
