"""Robustness of the OpenAI Responses fold: unknown keys and events, wrong types, refusals.

One hand-written example per RS rule (or more); `RULES_CHECKED` names the rules each test
checks.
"""

from __future__ import annotations

from typing import Any

import pytest

from refold.reference import ChunkTypeError
from refold.reference.responses import Accumulator, EventTypeError, fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_unknown_keys_on_events_never_change_the_result": ("RS-UNKNOWN-KEYS",),
    "test_keepalive_and_unknown_event_types_are_ignored": ("RS-KEEPALIVE",),
    "test_an_event_whose_type_is_not_a_string_is_ignored": ("RS-KEEPALIVE", "RS-WRONG-TYPE"),
    "test_a_lifecycle_or_terminal_response_that_is_not_an_object_changes_nothing": (
        "RS-WRONG-TYPE",
        "LIFE-RS-FINISHED",
    ),
    "test_wrong_typed_fields_are_absent_and_never_raise": ("RS-WRONG-TYPE",),
    "test_a_non_object_event_is_refused_naming_it_and_leaves_the_fold_unchanged": (
        "RS-NOT-OBJECT",
    ),
    "test_an_added_event_with_a_blank_item_adds_nothing_and_keeps_the_index_free": (
        "RS-NULL-ITEM",
    ),
}

CREATED = {
    "type": "response.created",
    "response": {
        "id": "resp_1",
        "object": "response",
        "status": "in_progress",
        "model": "gpt-x",
        "output": [],
    },
}
COMPLETED = {
    "type": "response.completed",
    "response": {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": "gpt-x",
        "output": [],
    },
}
MESSAGE = {
    "type": "message",
    "id": "msg_1",
    "status": "in_progress",
    "role": "assistant",
    "content": [],
}


def stream(noise: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    extra = noise or {}
    return [
        {**CREATED, **extra},
        {"type": "response.output_item.added", "output_index": 0, "item": MESSAGE, **extra},
        {
            "type": "response.output_text.delta",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "delta": "Hi",
            **extra,
        },
        {**COMPLETED, **extra},
    ]


def test_unknown_keys_on_events_never_change_the_result() -> None:
    # RQ15: obfuscation padding on every delta, on by default
    noise = {
        "obfuscation": "x8f2kq",
        "x_gateway": {"id": 1},
        "logprobs": [{"t": 1}],
        "sequence_number": 4,
    }
    assert fold(stream(noise)) == fold(stream())


def test_keepalive_and_unknown_event_types_are_ignored() -> None:
    # RQ24: openai-node throws on any type outside its list
    noise = [
        {"type": "keepalive"},
        {"type": "response.future_thing.delta", "output_index": 0, "delta": "x"},
        {"type": "ping"},
        {"type": ""},
        {},
    ]
    events = stream()
    noisy = [
        noise[0],
        events[0],
        noise[1],
        events[1],
        noise[2],
        events[2],
        noise[3],
        noise[4],
        events[3],
    ]
    assert fold(noisy) == fold(events)


def test_an_event_whose_type_is_not_a_string_is_ignored() -> None:
    events = stream()
    assert fold([*events[:3], {"type": None}, {"type": 7, "response": {}}, events[3]]) == (
        fold(events)
    )


def test_a_lifecycle_or_terminal_response_that_is_not_an_object_changes_nothing() -> None:
    accumulator = Accumulator()
    events = stream()
    for event in events[:3]:
        accumulator.add(event)
    before = accumulator.response()
    not_objects: list[Any] = [None, [], "done", 1]
    for kind in ("created", "in_progress", "completed", "failed"):
        for response in not_objects:
            accumulator.add({"type": f"response.{kind}", "response": response})
    assert accumulator.response() == before and not accumulator.finished


def test_wrong_typed_fields_are_absent_and_never_raise() -> None:
    wrong: dict[str, list[Any]] = {
        "index": [None, True, -1, 1.5, "0", [], {}],
        "string": [None, True, 1, [], {"a": 1}],
        "object": [None, True, 1, "x", "", [], [{}]],
    }
    fields = {
        "output_index": "index",
        "content_index": "index",
        "summary_index": "index",
        "annotation_index": "index",
        "item_id": "string",
        "delta": "string",
        "text": "string",
        "refusal": "string",
        "arguments": "string",
        "item": "object",
        "part": "object",
        "annotation": "object",
    }
    types = [
        "output_item.added",
        "output_item.done",
        "content_part.added",
        "content_part.done",
        "output_text.delta",
        "output_text.done",
        "output_text.annotation.added",
        "refusal.delta",
        "refusal.done",
        "reasoning_text.delta",
        "reasoning_summary_part.added",
        "reasoning_summary_text.delta",
        "function_call_arguments.delta",
        "function_call_arguments.done",
        "web_search_call.searching",
    ]
    accumulator = Accumulator()
    for event in stream()[:3]:
        accumulator.add(event)
    for kind in types:
        for field, family in fields.items():
            for value in wrong[family]:
                accumulator.add(
                    {
                        "type": f"response.{kind}",
                        "output_index": 0,
                        "item_id": "msg_1",
                        "content_index": 0,
                        field: value,
                    }
                )
    assert accumulator.response()["output"] == [
        {**MESSAGE, "content": [{"type": "output_text", "text": "Hi", "annotations": []}]}
    ]


def test_a_non_object_event_is_refused_naming_it_and_leaves_the_fold_unchanged() -> None:
    accumulator = Accumulator()
    accumulator.add(CREATED)
    before = accumulator.response()
    for number, value in enumerate(["[DONE]", None, [CREATED], 3, True], start=1):
        with pytest.raises(EventTypeError) as caught:
            accumulator.add(value)
        assert isinstance(caught.value, ChunkTypeError)
        assert caught.value.event_number == number
        assert str(caught.value).startswith(f"RS-NOT-OBJECT: event {number} is a JSON ")
        assert "OpenAI Responses" in str(caught.value)
        assert f"received {value!r}"[:60] in str(caught.value)
    assert accumulator.response() == before
    with pytest.raises(EventTypeError, match="JSON string"):
        fold([CREATED, "data: {}"])


def test_an_added_event_with_a_blank_item_adds_nothing_and_keeps_the_index_free() -> None:
    # RQ6: output_item.added with item null
    for blank in (None, "", "message", [MESSAGE]):
        output = fold(
            [
                CREATED,
                {"type": "response.output_item.added", "output_index": 0, "item": blank},
                COMPLETED,
            ]
        )["output"]
        assert output == [], blank
    later = fold(
        [
            CREATED,
            {"type": "response.output_item.added", "output_index": 0, "item": None},
            {"type": "response.output_item.added", "output_index": 0, "item": MESSAGE},
            COMPLETED,
        ]
    )["output"]
    assert later == [{**MESSAGE, "status": "completed"}]
