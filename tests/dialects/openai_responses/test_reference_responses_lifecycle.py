"""The incremental lifecycle of the OpenAI Responses fold: empty, snapshot, finished, after.

One hand-written example per LIFE-RS rule (or more); `RULES_CHECKED` names the rules each
test checks.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from refold.reference import EmptyFoldError
from refold.reference.responses import Accumulator, NoResponseError, fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_reading_before_any_event_raises_the_documented_error": ("LIFE-RS-EMPTY",),
    "test_a_refused_event_is_no_event": ("LIFE-RS-EMPTY", "RS-NOT-OBJECT"),
    "test_the_snapshot_is_the_latest_lifecycle_response_with_the_streamed_items": (
        "LIFE-RS-SNAPSHOT",
    ),
    "test_without_a_lifecycle_response_the_snapshot_is_a_bare_in_progress_one": (
        "LIFE-RS-SNAPSHOT",
    ),
    "test_every_read_is_a_new_value_and_events_are_never_mutated": ("LIFE-RS-SNAPSHOT",),
    "test_reading_after_every_event_matches_folding_once": ("LIFE-RS-SNAPSHOT",),
    "test_finished_only_once_a_terminal_event_arrived": ("LIFE-RS-FINISHED",),
    "test_a_stream_that_ends_unfinished_keeps_in_progress": ("LIFE-RS-FINISHED",),
    "test_events_after_the_terminal_are_folded_into_the_streamed_items": ("LIFE-RS-AFTER",),
}

CREATED = {
    "type": "response.created",
    "response": {
        "id": "resp_1",
        "object": "response",
        "status": "in_progress",
        "model": "gpt-x",
        "output": [],
        "usage": None,
    },
}
QUEUED = {"type": "response.queued", "response": {"id": "resp_1", "status": "queued"}}
MESSAGE = {
    "type": "message",
    "id": "msg_1",
    "status": "in_progress",
    "role": "assistant",
    "content": [],
}
DONE_MESSAGE = {
    **MESSAGE,
    "status": "completed",
    "content": [{"type": "output_text", "text": "Hi", "annotations": []}],
}


def item_events() -> list[dict[str, Any]]:
    return [
        {"type": "response.output_item.added", "output_index": 0, "item": MESSAGE},
        {
            "type": "response.output_text.delta",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "delta": "Hi",
        },
        {
            "type": "response.output_text.done",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "text": "Hi",
        },
        {"type": "response.output_item.done", "output_index": 0, "item": DONE_MESSAGE},
    ]


def completed(output: list[Any]) -> dict[str, Any]:
    return {
        "type": "response.completed",
        "response": {
            "id": "resp_1",
            "object": "response",
            "status": "completed",
            "model": "gpt-x",
            "output": output,
            "usage": {"total_tokens": 3},
        },
    }


def test_reading_before_any_event_raises_the_documented_error() -> None:
    with pytest.raises(NoResponseError) as caught:
        Accumulator().response()
    assert isinstance(caught.value, EmptyFoldError)
    assert str(caught.value).startswith("LIFE-RS-EMPTY: no event has been folded yet")
    with pytest.raises(NoResponseError):
        fold([])


def test_a_refused_event_is_no_event() -> None:
    accumulator = Accumulator()
    for refused in ([], "x"):
        with pytest.raises(TypeError):
            accumulator.add(refused)
    with pytest.raises(NoResponseError, match=r"\(2 refused\)") as caught:
        accumulator.response()
    assert caught.value.events == 2
    accumulator.add({"type": "keepalive"})  # any object is an event
    assert accumulator.response() == {"object": "response", "status": "in_progress", "output": []}


def test_the_snapshot_is_the_latest_lifecycle_response_with_the_streamed_items() -> None:
    accumulator = Accumulator()
    accumulator.add(QUEUED)
    assert accumulator.response() == {
        "id": "resp_1",
        "status": "queued",
        "object": "response",
        "output": [],
    }
    accumulator.add(CREATED)
    events = item_events()
    accumulator.add(events[0])
    accumulator.add(events[1])
    snapshot = accumulator.response()
    assert snapshot["status"] == "in_progress" and snapshot["model"] == "gpt-x"
    # statuses as announced: RS-RECOVER-STATUS needs a terminal event
    assert snapshot["output"] == [
        {**MESSAGE, "content": [{"type": "output_text", "text": "Hi", "annotations": []}]}
    ]
    accumulator.add(
        {
            "type": "response.in_progress",
            "response": {"id": "resp_1", "status": "in_progress", "output": [DONE_MESSAGE]},
        }
    )
    assert "model" not in accumulator.response()  # the latest lifecycle response, whole
    assert accumulator.response()["output"][0]["status"] == "in_progress"  # the stream's


def test_without_a_lifecycle_response_the_snapshot_is_a_bare_in_progress_one() -> None:
    # a resumed stream or a gateway that drops response.created
    snapshot = fold(item_events())
    assert snapshot == {"object": "response", "status": "in_progress", "output": [DONE_MESSAGE]}


def test_every_read_is_a_new_value_and_events_are_never_mutated() -> None:
    events = [CREATED, *item_events()[:2], completed([])]
    pristine = copy.deepcopy(events)
    accumulator = Accumulator()
    for event in events[:3]:
        accumulator.add(event)
    first = accumulator.response()
    first["output"][0]["content"][0]["text"] = "changed"
    first["model"] = "changed"
    assert accumulator.response()["output"][0]["content"][0]["text"] == "Hi"
    accumulator.add(events[3])
    final = accumulator.response()
    final["usage"]["total_tokens"] = 0
    final["output"][0]["role"] = "changed"
    assert accumulator.response()["usage"] == {"total_tokens": 3}
    assert first["status"] == "in_progress" and events == pristine


def test_reading_after_every_event_matches_folding_once() -> None:
    events = [CREATED, *item_events(), completed([])]
    accumulator = Accumulator()
    for count, event in enumerate(events, start=1):
        accumulator.add(event)
        assert accumulator.response() == fold(events[:count])
    assert accumulator.response()["output"] == [DONE_MESSAGE]


def test_finished_only_once_a_terminal_event_arrived() -> None:
    accumulator = Accumulator()
    for event in [CREATED, *item_events(), {"type": "error", "code": "x", "message": "m"}]:
        accumulator.add(event)
        assert not accumulator.finished  # the last item's done and error do not finish
    accumulator.add(completed([]))
    assert accumulator.finished


def test_a_stream_that_ends_unfinished_keeps_in_progress() -> None:
    snapshot = fold([CREATED, *item_events()[:2]])
    assert snapshot["status"] == "in_progress"  # not a short answer
    assert snapshot["output"][0]["status"] == "in_progress"


def test_events_after_the_terminal_are_folded_into_the_streamed_items() -> None:
    events = [CREATED, *item_events()[:2], completed([])]
    late = {
        "type": "response.output_text.delta",
        "item_id": "msg_1",
        "output_index": 0,
        "content_index": 0,
        "delta": " there",
    }
    assert fold([*events, late])["output"][0]["content"][0]["text"] == "Hi there"
    # a whole terminal output does not change with late item events (RS-OUTPUT-TERMINAL)
    whole = [CREATED, *item_events()[:2], completed([DONE_MESSAGE])]
    assert fold([*whole, late]) == fold(whole)
