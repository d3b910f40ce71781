"""Usage and the incremental lifecycle of the Anthropic Messages fold.

One hand-written example per AM rule; `RULES_CHECKED` names the rules each test checks.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from refold.reference import ChunkTypeError, EmptyFoldError
from refold.reference.anthropic import Accumulator, EventTypeError, NoMessageError, fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_usage_starts_as_a_copy_of_message_start_usage": ("AM-USAGE-BASE",),
    "test_non_blank_message_delta_usage_keys_replace_whole": ("AM-USAGE-REPLACE",),
    "test_blank_and_wrong_typed_usage_keys_keep_the_earlier_value": (
        "AM-USAGE-REPLACE",
        "AM-ROB-WRONG-TYPE",
    ),
    "test_no_count_is_ever_added_across_events": ("AM-USAGE-NEVER-SUM",),
    "test_usage_without_a_start_object_comes_from_message_delta_alone": ("AM-USAGE-ABSENT",),
    "test_no_usage_reported_means_no_usage_key": ("AM-USAGE-ABSENT",),
    "test_an_empty_usage_object_on_message_start_is_kept": ("AM-USAGE-BASE", "AM-USAGE-ABSENT"),
    "test_reading_before_message_start_raises_the_documented_error": ("AM-LIFE-EMPTY",),
    "test_errors_number_events_by_every_add_refused_ones_included": (
        "AM-LIFE-EMPTY",
        "AM-ROB-NOT-OBJECT",
    ),
    "test_every_read_is_a_new_value_and_events_are_never_mutated": ("AM-LIFE-SNAPSHOT",),
    "test_reading_after_every_event_matches_folding_once": ("AM-LIFE-SNAPSHOT",),
    "test_finished_once_message_stop_follows_message_start": ("AM-LIFE-FINISHED",),
    "test_message_stop_before_message_start_does_not_finish": (
        "AM-LIFE-FINISHED",
        "AM-BEFORE-START",
    ),
    "test_an_error_is_recorded_not_copied_and_keeps_the_partial_message": ("AM-LIFE-ERROR",),
    "test_an_error_is_terminal": ("AM-LIFE-ERROR",),
    "test_an_error_before_message_start_is_recorded_and_terminal": (
        "AM-LIFE-ERROR",
        "AM-BEFORE-START",
        "AM-LIFE-EMPTY",
    ),
    "test_an_error_event_without_an_error_object_records_an_empty_one": ("AM-LIFE-ERROR",),
    "test_a_truncated_stream_is_partial_and_not_finished": ("AM-LIFE-TRUNCATED",),
    "test_events_after_message_stop_change_nothing": ("AM-LIFE-AFTER-STOP",),
    "test_an_error_after_message_stop_changes_nothing": ("AM-LIFE-AFTER-STOP",),
    "test_a_non_object_event_is_refused_naming_it_and_leaves_the_fold_unchanged": (
        "AM-ROB-NOT-OBJECT",
    ),
}


def start(**message: Any) -> dict[str, Any]:
    return {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            **message,
        },
    }


def usage_delta(usage: Any, **fields: Any) -> dict[str, Any]:
    return {"type": "message_delta", "delta": fields, "usage": usage}


def text_block(index: int, value: str) -> list[dict[str, Any]]:
    return [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "text", "text": ""},
        },
        {
            "type": "content_block_delta",
            "index": index,
            "delta": {"type": "text_delta", "text": value},
        },
    ]


STOP = {"type": "message_stop"}
OVERLOADED = {
    "type": "error",
    "error": {"type": "overloaded_error", "message": "Overloaded", "details": None},
    "request_id": "req_1",
}


def test_usage_starts_as_a_copy_of_message_start_usage() -> None:
    usage = {
        "input_tokens": 25,
        "output_tokens": 1,
        "cache_read_input_tokens": 0,
        "service_tier": "standard",
        "x_new": {"a": 1},
    }
    assert fold([start(usage=usage), STOP])["usage"] == usage


def test_non_blank_message_delta_usage_keys_replace_whole() -> None:
    message = fold(
        [
            start(
                usage={
                    "input_tokens": 2679,
                    "output_tokens": 3,
                    "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 2},
                }
            ),
            usage_delta(
                {
                    "input_tokens": 10682,
                    "output_tokens": 510,
                    "server_tool_use": {"web_search_requests": 1},
                    "cache_creation": {"ephemeral_5m_input_tokens": 4},
                    "service_tier": "priority",
                    "output_tokens_details": {"r": 1},
                },
                stop_reason="end_turn",
            ),
            STOP,
        ]
    )
    assert message["usage"] == {
        "input_tokens": 10682,
        "output_tokens": 510,
        "server_tool_use": {"web_search_requests": 1},
        "cache_creation": {"ephemeral_5m_input_tokens": 4},
        "service_tier": "priority",
        "output_tokens_details": {"r": 1},
    }


def test_blank_and_wrong_typed_usage_keys_keep_the_earlier_value() -> None:
    earlier = {
        "input_tokens": 5,
        "output_tokens": 1,
        "cache_read_input_tokens": 7,
        "cache_creation_input_tokens": 8,
        "server_tool_use": {"web_search_requests": 1},
        "cache_creation": {"e": 1},
        "service_tier": "standard",
        "x_other": 1,
    }
    wrong = {
        "input_tokens": "5",
        "output_tokens": True,
        "cache_read_input_tokens": None,
        "cache_creation_input_tokens": [9],
        "server_tool_use": 3,
        "cache_creation": None,
        "service_tier": " ",
        "x_other": None,
    }
    message = fold(
        [start(usage=earlier), usage_delta(wrong), usage_delta(None), usage_delta("usage"), STOP]
    )
    assert message["usage"] == earlier


def test_no_count_is_ever_added_across_events() -> None:
    message = fold(
        [
            start(usage={"input_tokens": 10, "output_tokens": 1}),
            usage_delta({"output_tokens": 7}),
            usage_delta({"input_tokens": 10, "output_tokens": 15}),
            STOP,
        ]
    )
    assert message["usage"] == {"input_tokens": 10, "output_tokens": 15}


def test_usage_without_a_start_object_comes_from_message_delta_alone() -> None:
    assert fold([start(), usage_delta({"output_tokens": 15, "input_tokens": None})])["usage"] == {
        "output_tokens": 15
    }
    assert fold([start(usage="n/a"), usage_delta({"output_tokens": 1.0})])["usage"] == {
        "output_tokens": 1.0
    }


def test_no_usage_reported_means_no_usage_key() -> None:
    assert "usage" not in fold([start(), usage_delta({"output_tokens": None}), STOP])
    assert "usage" not in fold([start(usage=None), STOP])
    assert "usage" not in fold([start(usage=[1]), usage_delta({}), STOP])


def test_an_empty_usage_object_on_message_start_is_kept() -> None:
    # AM-USAGE-BASE copies a usage object whatever it holds; AM-USAGE-ABSENT's "no usage
    # key" is read as the case where message_start carried no usage object at all.
    assert fold([start(usage={}), STOP])["usage"] == {}
    assert fold([start(usage={"input_tokens": None}), STOP])["usage"] == {"input_tokens": None}


def test_reading_before_message_start_raises_the_documented_error() -> None:
    accumulator = Accumulator()
    with pytest.raises(NoMessageError, match="AM-LIFE-EMPTY") as raised:
        accumulator.response()
    assert isinstance(raised.value, EmptyFoldError) and raised.value.events == 0
    accumulator.add({"type": "ping"})
    with pytest.raises(NoMessageError, match=r"1 events received"):
        accumulator.response()
    with pytest.raises(NoMessageError):
        fold([])
    accumulator.add(start())
    assert accumulator.response()["id"] == "msg_1"


def test_errors_number_events_by_every_add_refused_ones_included() -> None:
    accumulator = Accumulator()
    accumulator.add({"type": "ping"})
    accumulator.add({"type": "ping"})
    with pytest.raises(NoMessageError, match=r"\(2 events received\)"):
        accumulator.response()
    with pytest.raises(EventTypeError, match="event 2 is a JSON null"):
        accumulator.add(None)
    with pytest.raises(EventTypeError, match="event 3 is a JSON array"):
        accumulator.add([])
    with pytest.raises(NoMessageError, match=r"\(4 events received\)") as raised:
        accumulator.response()
    assert raised.value.events == 4


def test_every_read_is_a_new_value_and_events_are_never_mutated() -> None:
    events = [
        start(usage={"input_tokens": 1}, content=[{"type": "text", "text": "a"}]),
        *text_block(1, "b"),
        {
            "type": "content_block_start",
            "index": 2,
            "content_block": {"type": "tool_use", "id": "t", "name": "f", "input": {}},
        },
        {
            "type": "content_block_delta",
            "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": '{"k": [1]}'},
        },
        usage_delta({"output_tokens": 2}, stop_details={"type": "r"}, container={"id": "c"}),
        OVERLOADED,
    ]
    sent = copy.deepcopy(events)
    accumulator = Accumulator()
    for event in events[:-2]:
        accumulator.add(event)
    first = accumulator.response()
    snapshot = copy.deepcopy(first)
    for event in events[-2:]:
        accumulator.add(event)
    second = accumulator.response()
    assert first == snapshot and first is not second
    second["content"][2]["input"]["k"].append(2)
    second["usage"]["input_tokens"] = 99
    second["stop_details"]["type"] = "changed"
    accumulator.error["type"] = "changed"  # type: ignore[index]
    assert accumulator.response()["content"][2]["input"] == {"k": [1]}
    assert accumulator.response()["usage"]["input_tokens"] == 1
    assert accumulator.response()["stop_details"] == {"type": "r"}
    assert accumulator.error == OVERLOADED["error"]
    assert events == sent


def test_reading_after_every_event_matches_folding_once() -> None:
    pieces = ["", '{"a": "x', "\\", 'u00e9"', "}", " ", "\n"]
    events = [
        start(),
        *text_block(0, "a"),
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "t", "name": "f", "input": {"start": 1}},
        },
        *[
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": p},
            }
            for p in pieces
        ],
        STOP,
    ]
    accumulator = Accumulator()
    seen = []
    for event in events:
        accumulator.add(event)
        content = accumulator.response()["content"]
        seen.append(content[-1].get("input") if content else None)
    assert accumulator.response() == fold(events)
    assert seen[3:] == [
        {"start": 1},
        {"start": 1},
        '{"a": "x',
        '{"a": "x\\',
        '{"a": "x\\u00e9"',
        {"a": "x\u00e9"},
        {"a": "x\u00e9"},
        {"a": "x\u00e9"},
        {"a": "x\u00e9"},
    ]


def test_finished_once_message_stop_follows_message_start() -> None:
    accumulator = Accumulator()
    for event in [start(), *text_block(0, "a"), usage_delta(None, stop_reason="end_turn")]:
        accumulator.add(event)
        assert not accumulator.finished
    accumulator.add(STOP)
    assert accumulator.finished and accumulator.error is None


def test_message_stop_before_message_start_does_not_finish() -> None:
    accumulator = Accumulator()
    accumulator.add(STOP)
    accumulator.add(start())
    assert not accumulator.finished
    accumulator.add(STOP)
    assert accumulator.finished


def test_an_error_is_recorded_not_copied_and_keeps_the_partial_message() -> None:
    accumulator = Accumulator()
    for event in [start(), *text_block(0, "partial"), OVERLOADED]:
        accumulator.add(event)
    assert accumulator.error == {
        "type": "overloaded_error",
        "message": "Overloaded",
        "details": None,
    }
    assert not accumulator.finished
    message = accumulator.response()
    assert message["content"] == [{"type": "text", "text": "partial"}]
    assert "error" not in message and "request_id" not in message


def test_an_error_is_terminal() -> None:
    accumulator = Accumulator()
    for event in [
        start(),
        *text_block(0, "a"),
        OVERLOADED,
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": "late"},
        },
        usage_delta({"output_tokens": 3}, stop_reason="end_turn"),
        {"type": "error", "error": {"type": "api_error"}},
        STOP,
    ]:
        accumulator.add(event)
    assert not accumulator.finished
    assert accumulator.error == OVERLOADED["error"]
    assert accumulator.response() == fold([start(), *text_block(0, "a")])


def test_an_error_before_message_start_is_recorded_and_terminal() -> None:
    accumulator = Accumulator()
    for event in [{"type": "ping"}, OVERLOADED, start(), STOP]:
        accumulator.add(event)
    assert accumulator.error == OVERLOADED["error"] and not accumulator.finished
    with pytest.raises(NoMessageError):
        accumulator.response()


@pytest.mark.parametrize("error", [None, "Overloaded", [], {}])
def test_an_error_event_without_an_error_object_records_an_empty_one(error: Any) -> None:
    accumulator = Accumulator()
    accumulator.add(start())
    accumulator.add({"type": "error", "error": error})
    assert accumulator.error == {}
    assert not accumulator.finished


def test_a_truncated_stream_is_partial_and_not_finished() -> None:
    accumulator = Accumulator()
    for event in [
        start(usage={"input_tokens": 4}),
        *text_block(0, "cut sh"),
        usage_delta({"output_tokens": 2}, stop_reason="max_tokens"),
    ]:
        accumulator.add(event)
    assert not accumulator.finished and accumulator.error is None
    message = accumulator.response()
    assert (message["content"], message["stop_reason"], message["usage"]) == (
        [{"type": "text", "text": "cut sh"}],
        "max_tokens",
        {"input_tokens": 4, "output_tokens": 2},
    )


def test_events_after_message_stop_change_nothing() -> None:
    stream = [
        start(),
        *text_block(0, "a"),
        usage_delta({"output_tokens": 1}, stop_reason="end_turn"),
        STOP,
    ]
    late = [
        *text_block(1, "late"),
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "!"}},
        usage_delta({"output_tokens": 9}, stop_reason="max_tokens"),
        start(id="msg_2"),
    ]
    assert fold([*stream, *late]) == fold(stream)


def test_an_error_after_message_stop_changes_nothing() -> None:
    accumulator = Accumulator()
    for event in [start(), STOP, OVERLOADED]:
        accumulator.add(event)
    assert accumulator.finished and accumulator.error is None


@pytest.mark.parametrize(
    ("event", "named"),
    [
        (None, "JSON null"),
        ("data", "JSON string"),
        ([{"type": "ping"}], "JSON array"),
        (3, "JSON number"),
        (True, "JSON boolean"),
    ],
)
def test_a_non_object_event_is_refused_naming_it_and_leaves_the_fold_unchanged(
    event: Any, named: str
) -> None:
    accumulator = Accumulator()
    accumulator.add(start())
    before = accumulator.response()
    with pytest.raises(EventTypeError, match=f"AM-ROB-NOT-OBJECT: event 1 is a {named}") as e:
        accumulator.add(event)
    assert isinstance(e.value, ChunkTypeError) and e.value.event_number == 1
    assert str(e.value).endswith(f"received {event!r}"), str(e.value)
    assert accumulator.response() == before and not accumulator.finished
    with pytest.raises(EventTypeError):
        fold([start(), event])
