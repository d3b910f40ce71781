"""Responses splits are lossless: every stream `event_splits` draws folds back to its
response, per family and mixed, for every feature claim; family 1 alone is OpenAI's own
shape."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference.responses import differences, fold
from refold.strategies.responses import (
    FEATURES,
    SPLIT_FAMILIES,
    event_splits,
    families_for,
    responses,
    round_trips,
)

_SLOW = settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
_TERMINALS = ("response.completed", "response.incomplete", "response.failed")
_any_features = st.sets(st.sampled_from(FEATURES)).map(lambda f: frozenset(f | {"text"}))


@pytest.mark.parametrize("family", sorted(SPLIT_FAMILIES))
@given(data=st.data())
@_SLOW
def test_each_family_alone_with_the_plain_shape_folds_back_to_its_response(
    family: int, data: st.DataObject
) -> None:
    response = data.draw(responses())
    events = data.draw(event_splits(response, families={1, family}))
    assert differences(response, fold(events)) == []


def _without_terminal_output(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    stripped = copy.deepcopy(events)
    for event in stripped:
        if event.get("type") in _TERMINALS:
            event["response"]["output"] = []
    return stripped


@pytest.mark.parametrize("family", sorted(SPLIT_FAMILIES))
@given(data=st.data())
@_SLOW
def test_each_familys_streamed_items_alone_fold_back_to_the_output(
    family: int, data: st.DataObject
) -> None:
    """A whole terminal output is the result (RS-OUTPUT-TERMINAL) and would hide the
    items' events: with it emptied, the items streamed by every family still fold back
    (RS-OUTPUT-RECOVER)."""
    response = data.draw(responses())
    events = data.draw(event_splits(response, families={1, family}))
    assert differences(response, fold(_without_terminal_output(events))) == []


@given(data=st.data())
@_SLOW
def test_every_mix_of_families_folds_back_to_its_response(data: st.DataObject) -> None:
    families = data.draw(st.sets(st.sampled_from(sorted(SPLIT_FAMILIES)), min_size=1))
    response, events = data.draw(round_trips(families=families))
    assert differences(response, fold(events)) == []


@pytest.mark.parametrize("feature", FEATURES)
@given(data=st.data())
@_SLOW
def test_a_round_trip_for_a_claim_of_text_and_one_feature_folds_back(
    feature: str, data: st.DataObject
) -> None:
    response, events = data.draw(round_trips(features={"text", feature}))
    assert differences(response, fold(events)) == []


@given(data=st.data())
@_SLOW
def test_a_round_trip_of_the_claimed_features_folds_back(data: st.DataObject) -> None:
    response, events = data.draw(round_trips(features=data.draw(_any_features)))
    assert differences(response, fold(events)) == []


def _item_stream_errors(
    index: int, item: dict[str, Any], events: list[dict[str, Any]]
) -> list[str]:
    """Where item `index`'s events depart from OpenAI's own shape: added first with the
    item's identity, done last with the whole item, the deltas joining to each value."""
    mine = [e for e in events if e.get("output_index") == index]
    errors = []
    if mine[0]["type"] != "response.output_item.added" or mine[0]["item"].get("id") != item.get(
        "id"
    ):
        errors.append(f"item {index} does not start with its output_item.added")
    if mine[-1] != {
        "type": "response.output_item.done",
        "output_index": index,
        "item": item,
        "sequence_number": mine[-1]["sequence_number"],
    }:
        errors.append(f"item {index} does not end with its whole item")
    for event in mine[1:-1]:
        if "item_id" in item and event.get("item_id") != item.get("id"):
            errors.append(f"item {index}: {event['type']} names another item")
    joined: dict[tuple[str, Any], str] = {}
    for event in mine:
        if event["type"].endswith(".delta"):
            key = (event["type"], event.get("content_index", event.get("summary_index")))
            joined[key] = joined.get(key, "") + event["delta"]
        elif event["type"].endswith(".done") and "part" not in event and "item" not in event:
            key = (
                event["type"].replace(".done", ".delta"),
                event.get("content_index", event.get("summary_index")),
            )
            value = event.get("text", event.get("refusal", event.get("arguments")))
            if joined.get(key, "") != value:
                errors.append(f"item {index}: the deltas of {key} do not join to {value!r}")
    return errors


def _openai_shape_errors(response: dict[str, Any], events: list[dict[str, Any]]) -> list[str]:
    errors = []
    if [e["type"] for e in events[:2]] != ["response.created", "response.in_progress"]:
        errors.append("the stream does not start with created, in_progress")
    if [e.get("sequence_number") for e in events] != list(range(len(events))):
        errors.append("sequence numbers are not 0, 1, 2, ...")
    if events[-1] != {
        "type": f"response.{response['status']}",
        "response": response,
        "sequence_number": len(events) - 1,
    }:
        errors.append("the stream does not end with the terminal event of the whole response")
    indexes = [e["output_index"] for e in events if "output_index" in e]
    if indexes != sorted(indexes):
        errors.append("items are not streamed one after another")
    for index, item in enumerate(response["output"]):
        errors += _item_stream_errors(index, item, events)
    return errors


@given(data=st.data())
@_SLOW
def test_family_1_alone_is_openais_own_shape(data: st.DataObject) -> None:
    response = data.draw(responses())
    events = data.draw(event_splits(response, families={1}))
    assert _openai_shape_errors(response, events) == []


@pytest.mark.parametrize("families", [set(), {0}, {8}])
@given(data=st.data())
@settings(max_examples=1)
def test_event_splits_refuses_families_outside_1_to_7(
    families: set[int], data: st.DataObject
) -> None:
    with pytest.raises(InvalidArgument, match="families"):
        data.draw(event_splits({"status": "completed", "output": []}, families=families))


def test_families_for_follows_the_claims_table() -> None:
    assert families_for({"text"}) == SPLIT_FAMILIES
    assert families_for(FEATURES) == SPLIT_FAMILIES
