"""Drawn Anthropic messages and events are JSON values of the documented shape, and a
target is only sent what it claims."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _anthropic_features import message_features, shape_errors, stream_features
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference.anthropic import fold
from refold.strategies.anthropic import (
    FEATURES,
    STOP_REASONS,
    event_streams,
    messages,
    round_trips,
)

_SLOW = settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
_claims = st.sets(st.sampled_from(FEATURES)).map(lambda f: frozenset(f | {"text"}))


def _is_json(value: Any) -> bool:
    """True when `value` survives a strict JSON round trip unchanged."""
    return bool(json.loads(json.dumps(value, allow_nan=False)) == value)


@given(message=messages())
@_SLOW
def test_every_drawn_message_is_a_json_message_of_the_documented_shape(
    message: dict[str, Any],
) -> None:
    assert _is_json(message)
    assert shape_errors(message) == []
    assert message["stop_reason"] in STOP_REASONS


@given(case=round_trips())
@_SLOW
def test_every_event_of_a_split_is_a_json_object_with_a_type(
    case: tuple[dict[str, Any], list[Any]],
) -> None:
    _, events = case
    assert _is_json(events)
    assert all(isinstance(item, dict) for item in events)
    assert [item.get("type") for item in events].count("message_start") >= 1


@given(events=event_streams())
@_SLOW
def test_every_damaged_stream_is_json_objects_the_reference_folds_without_raising(
    events: list[Any],
) -> None:
    assert _is_json(events)
    assert all(isinstance(item, dict) for item in events)
    assert shape_errors(fold(events)) is not None  # reading never raises: a message_start counted


@given(data=st.data(), claimed=_claims)
@_SLOW
def test_a_drawn_message_holds_only_claimed_features(
    data: st.DataObject, claimed: frozenset[str]
) -> None:
    message = data.draw(messages(features=claimed))
    assert message_features(message) <= claimed


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


@pytest.mark.parametrize("features", [{"tool_use"}, {"text", "tool_calls"}])
@given(data=st.data())
@settings(max_examples=1)
def test_messages_refuses_features_outside_the_vocabulary_or_without_text(
    features: set[str], data: st.DataObject
) -> None:
    with pytest.raises(InvalidArgument, match="features"):
        data.draw(messages(features=features))
