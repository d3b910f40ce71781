"""Single Anthropic events for a lifecycle state machine (`lifecycle_events`): JSON
objects of every type the fold reads, each drawn only for a target that claims the rules
deciding it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _anthropic_features import message_features
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.strategies.anthropic import FEATURES, lifecycle_events

_claims = st.sets(st.sampled_from(FEATURES)).map(lambda f: frozenset(f | {"text"}))
_EXISTS = settings(max_examples=2000, deadline=None, database=None)
_KNOWN_EVENTS = {
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "error",
}
_KNOWN_DELTAS = {
    "text_delta",
    "citations_delta",
    "input_json_delta",
    "thinking_delta",
    "signature_delta",
}
_DELTA_NEEDS = {
    "citations_delta": {"citations"},
    "thinking_delta": {"thinking"},
    "signature_delta": {"thinking"},
}


def _robustness_departures(item: dict[str, Any]) -> list[str]:
    """What in `item` only a target claiming `robustness` may be sent."""
    kind = item.get("type")
    found = [] if kind in _KNOWN_EVENTS else [f"event type {kind!r}"]
    payload = {
        "message_start": "message",
        "content_block_start": "content_block",
        "content_block_delta": "delta",
        "message_delta": "delta",
        "error": "error",
    }.get(str(kind))
    if payload and payload in item and not isinstance(item[payload], dict):
        found.append(f"{payload} is {item[payload]!r}")
    if str(kind).startswith("content_block_") and type(item.get("index")) is not int:
        found.append(f"index {item.get('index')!r}")
    delta = item.get("delta")
    if kind == "content_block_delta" and isinstance(delta, dict):
        if delta.get("type") not in _KNOWN_DELTAS:
            found.append(f"delta type {delta.get('type')!r}")
        if any(value is None for value in delta.values()):
            found.append("a null delta field")
    if kind == "message_delta" and isinstance(delta, dict):
        reason = delta.get("stop_reason")
        if reason is not None and not isinstance(reason, str):
            found.append(f"stop_reason {reason!r}")
    return found


def _features_used(item: dict[str, Any]) -> set[str]:
    """The features of the blocks, deltas and fields `item` carries."""
    used = {"text"}
    kind = item.get("type")
    if kind == "error":
        used.add("lifecycle")
    if kind == "message_start" and isinstance(item.get("message"), dict):
        used |= message_features(item["message"])
    if kind == "content_block_start" and isinstance(item.get("content_block"), dict):
        used |= message_features({"content": [item["content_block"]]})
    delta = item.get("delta")
    if kind == "content_block_delta" and isinstance(delta, dict):
        used |= _DELTA_NEEDS.get(str(delta.get("type")), set())
    if kind == "message_delta":
        if "usage" in item:
            used.add("usage")
        if isinstance(delta, dict) and {"stop_details", "container"} & set(delta):
            used.add("stop_details")
    return used


@settings(max_examples=300, deadline=None)
@given(data=st.data(), claimed=_claims)
def test_a_lifecycle_event_uses_only_what_the_target_claims(
    data: st.DataObject, claimed: frozenset[str]
) -> None:
    item = data.draw(lifecycle_events(features=claimed))
    assert json.loads(json.dumps(item, allow_nan=False)) == item
    assert _features_used(item) - {"robustness"} <= claimed, item
    if "robustness" not in claimed:
        assert _robustness_departures(item) == [], item


@settings(max_examples=300, deadline=None)
@given(data=st.data(), claimed=_claims)
def test_input_json_deltas_are_drawn_only_for_a_target_with_tool_blocks(
    data: st.DataObject, claimed: frozenset[str]
) -> None:
    item = data.draw(lifecycle_events(features=claimed))
    delta = item.get("delta")
    if isinstance(delta, dict) and delta.get("type") == "input_json_delta":
        assert claimed & {"tool_use", "server_tools"}, item


@given(data=st.data())
def test_every_draw_is_a_new_value(data: st.DataObject) -> None:
    first = data.draw(lifecycle_events())
    second = data.draw(lifecycle_events())
    assert first is not second
    for value in first.values():
        assert all(
            value is not other for other in second.values() if isinstance(value, dict | list)
        )


_EXPECTED = {
    "a message_start": lambda e: e.get("type") == "message_start",
    "a finished block inside message_start": lambda e: (
        e.get("type") == "message_start" and bool((e["message"] or {}).get("content"))
    ),
    "a message_start without type and role": lambda e: (
        e.get("type") == "message_start"
        and isinstance(e["message"], dict)
        and "role" not in e["message"]
    ),
    "a block start at index 1": lambda e: (
        e.get("type") == "content_block_start" and e.get("index") == 1
    ),
    "a text delta": lambda e: (e.get("delta") or {}).get("type") == "text_delta",
    "a partial_json delta": lambda e: (e.get("delta") or {}).get("type") == "input_json_delta",
    "a signature delta": lambda e: (e.get("delta") or {}).get("type") == "signature_delta",
    "a block stop": lambda e: e.get("type") == "content_block_stop",
    "a blank stop reason": lambda e: (
        e.get("type") == "message_delta"
        and isinstance(e["delta"], dict)
        and e["delta"].get("stop_reason") is None
    ),
    "a message_stop": lambda e: e.get("type") == "message_stop",
    "an error without an error object": lambda e: e == {"type": "error"},
    "a ping": lambda e: e == {"type": "ping"},
    "an unknown event": lambda e: e.get("type") not in _KNOWN_EVENTS | {"ping"},
    "a wrong type": lambda e: bool(_robustness_departures(e)),
}


@pytest.mark.parametrize("shape", sorted(_EXPECTED))
def test_each_kind_of_event_is_drawn(shape: str) -> None:
    assert _EXPECTED[shape](find(lifecycle_events(), _EXPECTED[shape], settings=_EXISTS))


def test_a_claim_without_text_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        lifecycle_events(features={"usage"})
