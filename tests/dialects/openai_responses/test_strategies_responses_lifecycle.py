"""Single Responses events for a lifecycle state machine (`lifecycle_events`): JSON
objects of every type the fold reads, each drawn only for a target that claims the rules
deciding it, and each a fresh value the reference folds without raising."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from _responses_features import stream_features
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference.responses import Accumulator
from refold.strategies.responses import FEATURES, lifecycle_events

_claims = st.sets(st.sampled_from(FEATURES)).map(lambda f: frozenset(f | {"text"}))
_EXISTS = settings(max_examples=2000, deadline=None, database=None)
_TERMINALS = ("response.completed", "response.incomplete", "response.failed")


@settings(max_examples=300, deadline=None)
@given(data=st.data(), claimed=_claims)
def test_a_lifecycle_event_uses_only_what_the_target_claims(
    data: st.DataObject, claimed: frozenset[str]
) -> None:
    item = data.draw(lifecycle_events(features=claimed))
    assert json.loads(json.dumps(item, allow_nan=False)) == item
    # one event with a terminal after it: `lifecycle` only for what the event itself needs
    # (a terminal event whose response is not an object finishes nothing: RS-WRONG-TYPE)
    terminal = {"type": "response.completed", "response": {"status": "completed"}}
    finishes = item.get("type") in _TERMINALS and isinstance(item.get("response"), dict)
    used = stream_features([item]) if finishes else stream_features([item, terminal])
    assert used <= claimed, item


@settings(max_examples=300, deadline=None)
@given(events=st.lists(lifecycle_events(), max_size=12))
def test_any_sequence_of_lifecycle_events_folds_without_raising(events: list[Any]) -> None:
    fold = Accumulator()
    for item in events:
        fold.add(item)
    if events:
        assert isinstance(fold.response(), dict)


@given(data=st.data())
def test_every_draw_is_a_new_value(data: st.DataObject) -> None:
    first = data.draw(lifecycle_events())
    second = data.draw(lifecycle_events())
    assert first is not second
    for value in first.values():
        assert all(
            value is not other for other in second.values() if isinstance(value, dict | list)
        )


def _item_type(event: dict[str, Any]) -> Any:
    item = event.get("item")
    return item.get("type") if isinstance(item, dict) else None


_EXPECTED: dict[str, Callable[[dict[str, Any]], bool]] = {
    "a response.created": lambda e: e.get("type") == "response.created",
    "a response.queued": lambda e: e.get("type") == "response.queued",
    "a message added at index 1": lambda e: (
        _item_type(e) == "message"
        and e.get("type") == "response.output_item.added"
        and e.get("output_index") == 1
    ),
    "a whole message done": lambda e: e.get("type") == "response.output_item.done",
    "an empty text delta": lambda e: (
        e.get("type") == "response.output_text.delta" and e.get("delta") == ""
    ),
    "a text done": lambda e: e.get("type") == "response.output_text.done",
    "a part done": lambda e: e.get("type") == "response.content_part.done",
    "an annotation": lambda e: e.get("type") == "response.output_text.annotation.added",
    "a refusal delta": lambda e: e.get("type") == "response.refusal.delta",
    "an arguments delta": lambda e: e.get("type") == "response.function_call_arguments.delta",
    "a reasoning text delta": lambda e: e.get("type") == "response.reasoning_text.delta",
    "a hosted-tool status event": lambda e: e.get("type") == "response.web_search_call.searching",
    # `response` may be of the wrong type (robustness draws it so)
    "a completed response with output": lambda e: (
        e.get("type") == "response.completed"
        and isinstance(e["response"], dict)
        and bool(e["response"].get("output"))
    ),
    "a completed response without output": lambda e: (
        e.get("type") == "response.completed"
        and isinstance(e["response"], dict)
        and e["response"].get("output") == []
    ),
    "an incomplete response": lambda e: e.get("type") == "response.incomplete",
    "a failed response": lambda e: e.get("type") == "response.failed",
    "an error event": lambda e: e.get("type") == "error",
    "a keepalive": lambda e: e == {"type": "keepalive"},
    "a wrong type": lambda e: (
        not isinstance(e.get("type"), str)
        or e.get("response", {}) is None
        or e.get("item", {}) is None
    ),
}


@pytest.mark.parametrize("shape", sorted(_EXPECTED))
def test_each_kind_of_event_is_drawn(shape: str) -> None:
    assert _EXPECTED[shape](find(lifecycle_events(), _EXPECTED[shape], settings=_EXISTS))


def test_a_claim_without_text_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        lifecycle_events(features={"usage"})
