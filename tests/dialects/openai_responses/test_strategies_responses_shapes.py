"""Drawn Responses and events are JSON values of the documented shape, and a target is
only sent what it claims."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _responses_features import response_features, shape_errors, stream_features
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference.responses import fold
from refold.strategies.responses import (
    FEATURES,
    SHAPES,
    STATUSES,
    allows,
    event_splits,
    event_streams,
    responses,
    round_trips,
)

_SLOW = settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
_claims = st.sets(st.sampled_from(FEATURES)).map(lambda f: frozenset(f | {"text"}))


def _is_json(value: Any) -> bool:
    """True when `value` survives a strict JSON round trip unchanged."""
    return bool(json.loads(json.dumps(value, allow_nan=False)) == value)


@given(response=responses())
@_SLOW
def test_every_drawn_response_is_a_json_response_of_the_documented_shape(
    response: dict[str, Any],
) -> None:
    assert _is_json(response)
    assert shape_errors(response) == []
    assert response["status"] in STATUSES


@given(case=round_trips())
@_SLOW
def test_every_event_of_a_split_is_a_json_object_and_one_terminal_event_ends_it(
    case: tuple[dict[str, Any], list[Any]],
) -> None:
    response, events = case
    assert _is_json(events)
    assert all(isinstance(item, dict) for item in events)
    terminal = f"response.{response['status']}"
    assert [item.get("type") for item in events].count(terminal) >= 1
    assert {
        item.get("type")
        for item in events[events.index(next(e for e in events if e.get("type") == terminal)) :]
    } == {terminal}


@given(events=event_streams())
@_SLOW
def test_every_damaged_stream_is_json_objects_the_reference_folds_without_raising(
    events: list[Any],
) -> None:
    assert _is_json(events)
    assert all(isinstance(item, dict) for item in events)
    assert isinstance(fold(events), dict)  # the first event is a lifecycle one: readable


@given(data=st.data(), claimed=_claims)
@_SLOW
def test_a_drawn_response_holds_only_claimed_features(
    data: st.DataObject, claimed: frozenset[str]
) -> None:
    response = data.draw(responses(features=claimed))
    assert response_features(response) <= claimed


@given(data=st.data(), claimed=_claims)
@_SLOW
def test_a_round_trip_stream_uses_only_claimed_features(
    data: st.DataObject, claimed: frozenset[str]
) -> None:
    _, events = data.draw(round_trips(features=claimed))
    assert stream_features(events) <= claimed, events


@given(data=st.data(), claimed=_claims)
@_SLOW
def test_a_damaged_stream_uses_only_claimed_features(
    data: st.DataObject, claimed: frozenset[str]
) -> None:
    events = data.draw(event_streams(features=claimed))
    assert stream_features(events) <= claimed, events


@given(data=st.data())
@_SLOW
def test_a_split_for_a_text_only_claim_carries_no_robustness_noise(
    data: st.DataObject,
) -> None:
    response = data.draw(responses(features={"text"}))
    events = data.draw(event_splits(response, features={"text"}))
    assert stream_features(events) == {"text"}, events


@pytest.mark.parametrize("features", [{"tool_calls"}, {"text", "tool_use"}])
@given(data=st.data())
@settings(max_examples=1)
def test_responses_refuses_features_outside_the_vocabulary_or_without_text(
    features: set[str], data: st.DataObject
) -> None:
    with pytest.raises(InvalidArgument, match="features"):
        data.draw(responses(features=features))


def test_allows_refuses_a_shape_outside_the_table() -> None:
    with pytest.raises(InvalidArgument, match="shape"):
        allows("no such shape", FEATURES)


def test_every_shape_needs_only_features_of_the_vocabulary() -> None:
    assert all(needed <= set(FEATURES) for needed in SHAPES.values())
