"""Anthropic splits are lossless: every stream `event_splits` draws folds back to its
message on the reference fold, per family and mixed, and family 1 alone is Anthropic's
own plain shape."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference.anthropic import differences, fold
from refold.strategies.anthropic import (
    FEATURES,
    SPLIT_FAMILIES,
    event_splits,
    families_for,
    messages,
    round_trips,
)

_ALL = frozenset(FEATURES)
_SLOW = settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
_any_features = st.sets(st.sampled_from(FEATURES)).map(lambda f: frozenset(f | {"text"}))


@pytest.mark.parametrize("family", sorted(SPLIT_FAMILIES))
@given(data=st.data())
@_SLOW
def test_each_family_alone_with_the_plain_shape_folds_back_to_its_message(
    family: int, data: st.DataObject
) -> None:
    message = data.draw(messages())
    events = data.draw(event_splits(message, families={1, family}))
    assert differences(message, fold(events)) == []


@given(data=st.data())
@_SLOW
def test_every_mix_of_families_folds_back_to_its_message(data: st.DataObject) -> None:
    families = data.draw(st.sets(st.sampled_from(sorted(SPLIT_FAMILIES)), min_size=1))
    message, events = data.draw(round_trips(features=_ALL, families=families))
    assert differences(message, fold(events)) == []


@given(data=st.data())
@_SLOW
def test_a_round_trip_of_the_claimed_features_folds_back(data: st.DataObject) -> None:
    message, events = data.draw(round_trips(features=data.draw(_any_features)))
    assert differences(message, fold(events)) == []


def _plain_shape(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Anthropic's own stream of `message`, written out by hand from the spec's family 1."""
    start = {
        k: v
        for k, v in message.items()
        if k not in ("content", "stop_reason", "stop_sequence", "stop_details", "usage")
    }
    start.update(content=[], stop_reason=None, stop_sequence=None)
    delta: dict[str, Any] = {
        "stop_reason": message["stop_reason"],
        "stop_sequence": message["stop_sequence"],
    }
    if "stop_details" in message:
        delta["stop_details"] = message["stop_details"]
    final: dict[str, Any] = {"type": "message_delta", "delta": delta}
    if "usage" in message:
        start["usage"] = {**message["usage"], "output_tokens": 1}
        final["usage"] = {"output_tokens": message["usage"]["output_tokens"]}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    for index, block in enumerate(message["content"]):
        events += _plain_block(index, block)
    return [*events, final, {"type": "message_stop"}]


def _plain_block(index: int, block: dict[str, Any]) -> list[dict[str, Any]]:
    kind = block["type"]
    deltas: list[dict[str, Any]] = []
    if kind == "text":
        initial: dict[str, Any] = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": block["text"]}] if block["text"] else []
        deltas += [{"type": "citations_delta", "citation": c} for c in block.get("citations", [])]
    elif kind in ("tool_use", "server_tool_use"):
        initial = {**block, "input": {}}
        text = json.dumps(block["input"], ensure_ascii=False, separators=(",", ":"))
        deltas = [{"type": "input_json_delta", "partial_json": text}]
    elif kind == "thinking":
        initial = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = (
            [{"type": "thinking_delta", "thinking": block["thinking"]}] if block["thinking"] else []
        )
        deltas.append({"type": "signature_delta", "signature": block["signature"]})
    else:
        initial = block
    return [
        {"type": "content_block_start", "index": index, "content_block": initial},
        *({"type": "content_block_delta", "index": index, "delta": d} for d in deltas),
        {"type": "content_block_stop", "index": index},
    ]


@given(data=st.data())
@_SLOW
def test_family_1_alone_is_anthropics_plain_shape(data: st.DataObject) -> None:
    message = data.draw(messages())
    assert data.draw(event_splits(message, families={1})) == _plain_shape(message)


@pytest.mark.parametrize("families", [set(), {0}, {10}])
@given(data=st.data())
@settings(max_examples=1)
def test_event_splits_refuses_families_outside_1_to_9(
    families: set[int], data: st.DataObject
) -> None:
    with pytest.raises(InvalidArgument, match="families"):
        data.draw(event_splits({"content": []}, families=families))


def test_families_for_follows_the_claims_table() -> None:
    assert families_for({"text"}) == {1, 2, 6, 9}
    assert families_for(FEATURES) == SPLIT_FAMILIES
