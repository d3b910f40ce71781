"""Envelope, content blocks and stop fields of the Anthropic Messages reference fold.

One hand-written example per AM rule; `RULES_CHECKED` names the rules each test checks
(tests/dialects/anthropic_messages/test_reference_anthropic_rules.py requires every registry rule to
appear).
"""

from __future__ import annotations

from typing import Any

from refold.reference.anthropic import fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_the_message_is_a_copy_of_message_start_with_every_key_kept": ("AM-START-BASE",),
    "test_blocks_inside_message_start_are_the_first_blocks": ("AM-START-CONTENT",),
    "test_message_start_content_blocks_take_later_deltas_and_starts_do_not_reopen_them": (
        "AM-START-CONTENT",
        "AM-BLOCK-REOPEN",
    ),
    "test_only_the_first_message_start_counts": ("AM-START-ONCE",),
    "test_blank_type_and_role_default_to_message_and_assistant": ("AM-TYPE-ROLE",),
    "test_non_blank_type_and_role_are_kept_as_sent": ("AM-TYPE-ROLE", "AM-START-BASE"),
    "test_events_before_message_start_change_nothing": ("AM-BEFORE-START",),
    "test_a_message_start_without_an_object_message_starts_nothing": (
        "AM-BEFORE-START",
        "AM-ROB-WRONG-TYPE",
    ),
    "test_content_block_start_opens_a_copy_of_the_block_with_every_key": ("AM-BLOCK-OPEN",),
    "test_a_start_without_a_usable_index_or_block_opens_nothing": (
        "AM-BLOCK-OPEN",
        "AM-ROB-WRONG-TYPE",
    ),
    "test_an_integral_float_index_is_that_integer": ("AM-BLOCK-OPEN", "AM-DELTA-ROUTE"),
    "test_blocks_are_ordered_by_index_not_arrival": ("AM-BLOCK-ORDER",),
    "test_a_gap_in_the_indexes_is_closed_up": ("AM-BLOCK-ORDER",),
    "test_a_second_start_for_an_index_is_ignored": ("AM-BLOCK-REOPEN",),
    "test_deltas_route_by_index_not_by_the_latest_block": ("AM-DELTA-ROUTE",),
    "test_a_delta_for_an_index_without_a_block_is_ignored": ("AM-DELTA-ROUTE",),
    "test_a_delta_of_the_wrong_kind_for_its_block_is_ignored": ("AM-DELTA-MATCH",),
    "test_content_block_stop_carries_no_data_and_late_deltas_still_apply": ("AM-BLOCK-STOP",),
    "test_a_never_stopped_block_is_still_in_the_message": ("AM-BLOCK-STOP",),
    "test_the_last_non_blank_stop_reason_wins_verbatim": ("AM-STOP-REASON",),
    "test_message_start_stop_reason_stands_without_a_message_delta": (
        "AM-STOP-REASON",
        "AM-START-CONTENT",
    ),
    "test_a_blank_stop_reason_changes_nothing": ("AM-STOP-REASON",),
    "test_stop_sequence_comes_with_the_stop_reason_that_set_it": ("AM-STOP-SEQUENCE",),
    "test_stop_details_object_replaces_and_a_blank_one_changes_nothing": ("AM-STOP-DETAILS",),
    "test_container_object_replaces_and_a_blank_one_changes_nothing": ("AM-CONTAINER",),
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


def block(index: Any, **content_block: Any) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": content_block}


def delta(index: Any, **fields: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": fields}


def text(index: Any, value: str) -> dict[str, Any]:
    return delta(index, type="text_delta", text=value)


def message_delta(**fields: Any) -> dict[str, Any]:
    return {"type": "message_delta", "delta": fields}


STOP = {"type": "message_stop"}


def texts(message: dict[str, Any]) -> list[Any]:
    return [b.get("text") for b in message["content"]]


def test_the_message_is_a_copy_of_message_start_with_every_key_kept() -> None:
    message = fold([start(container={"id": "c1"}, x_unknown=[1], usage={"input_tokens": 2}), STOP])
    assert message == {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "container": {"id": "c1"},
        "x_unknown": [1],
        "usage": {"input_tokens": 2},
    }


def test_blocks_inside_message_start_are_the_first_blocks() -> None:
    call = {
        "type": "tool_use",
        "id": "t1",
        "name": "f",
        "input": {"a": 1},
        "caller": {"type": "code_execution"},
    }
    message = fold([start(content=[call], stop_reason="tool_use"), STOP])
    assert message["content"] == [call]
    assert message["stop_reason"] == "tool_use"


def test_message_start_content_blocks_take_later_deltas_and_starts_do_not_reopen_them() -> None:
    message = fold(
        [
            start(content=[{"type": "text", "text": "a"}, None]),
            block(0, type="text", text="ignored"),
            text(0, "b"),
            block(1, type="text", text="c"),
            STOP,
        ]
    )
    assert texts(message) == ["ab", "c"]


def test_only_the_first_message_start_counts() -> None:
    message = fold(
        [
            start(),
            block(0, type="text", text=""),
            text(0, "x"),
            start(id="msg_2", model="other"),
            STOP,
        ]
    )
    assert (message["id"], message["model"], texts(message)) == ("msg_1", "claude-x", ["x"])


def test_blank_type_and_role_default_to_message_and_assistant() -> None:
    message = fold([start(type=" ", role=None)])
    assert (message["type"], message["role"]) == ("message", "assistant")
    bare = fold([{"type": "message_start", "message": {}}])
    assert bare == {"type": "message", "role": "assistant", "content": [], "stop_reason": None}


def test_non_blank_type_and_role_are_kept_as_sent() -> None:
    message = fold([start(type="msg", role="user")])
    assert (message["type"], message["role"]) == ("msg", "user")


def test_events_before_message_start_change_nothing() -> None:
    early = [
        {"type": "ping"},
        block(0, type="text", text="early"),
        text(0, "x"),
        message_delta(stop_reason="end_turn"),
        STOP,
        {"type": "vertex_event"},
    ]
    assert fold([*early, start(), STOP]) == fold([start(), STOP])


def test_a_message_start_without_an_object_message_starts_nothing() -> None:
    message = fold(
        [
            {"type": "message_start", "message": None},
            {"type": "message_start", "message": "msg"},
            start(id="msg_3"),
        ]
    )
    assert message["id"] == "msg_3"


def test_content_block_start_opens_a_copy_of_the_block_with_every_key() -> None:
    sent = block(0, type="text", text="", x_key={"y": None})
    message = fold([start(), sent])
    assert message["content"] == [{"type": "text", "text": "", "x_key": {"y": None}}]
    assert message["content"][0] is not sent["content_block"]


def test_a_start_without_a_usable_index_or_block_opens_nothing() -> None:
    events = [
        start(),
        block(-1, type="text", text="a"),
        block("0", type="text", text="b"),
        block(index=True, type="text", text="c"),
        block(1.5, type="text", text="d"),
        {"type": "content_block_start", "index": 0, "content_block": None},
        {"type": "content_block_start", "content_block": {"type": "text"}},
    ]
    assert fold(events)["content"] == []


def test_an_integral_float_index_is_that_integer() -> None:
    message = fold([start(), block(1.0, type="text", text=""), text(1, "a"), text(1.0, "b")])
    assert texts(message) == ["ab"]


def test_blocks_are_ordered_by_index_not_arrival() -> None:
    message = fold(
        [start(), block(1, type="text", text="second"), block(0, type="text", text="first")]
    )
    assert texts(message) == ["first", "second"]


def test_a_gap_in_the_indexes_is_closed_up() -> None:
    message = fold(
        [start(), block(1, type="text", text=""), text(1, "a"), block(5, type="text", text="b")]
    )
    assert texts(message) == ["a", "b"]


def test_a_second_start_for_an_index_is_ignored() -> None:
    message = fold(
        [
            start(),
            block(0, type="text", text="a"),
            block(0, type="tool_use", id="t", name="f", input={}),
            text(0, "b"),
        ]
    )
    assert message["content"] == [{"type": "text", "text": "ab"}]


def test_deltas_route_by_index_not_by_the_latest_block() -> None:
    message = fold(
        [
            start(),
            block(0, type="text", text=""),
            block(1, type="text", text=""),
            text(0, "zero"),
            text(1, "one"),
            text(0, "!"),
        ]
    )
    assert texts(message) == ["zero!", "one"]


def test_a_delta_for_an_index_without_a_block_is_ignored() -> None:
    message = fold(
        [
            start(),
            text(0, "early"),
            block(0, type="text", text=""),
            text(0, "a"),
            text(3, "nowhere"),
            text("0", "string index"),
            text(None, "none"),
            {"type": "content_block_delta", "delta": {"type": "text_delta", "text": "?"}},
        ]
    )
    assert texts(message) == ["a"]


def test_a_delta_of_the_wrong_kind_for_its_block_is_ignored() -> None:
    message = fold(
        [
            start(),
            block(0, type="text", text=""),
            block(1, type="tool_use", id="t", name="f", input={}),
            block(2, type="thinking", thinking=""),
            delta(0, type="thinking_delta", thinking="t"),
            delta(0, type="input_json_delta", partial_json="{}"),
            delta(0, type="signature_delta", signature="s"),
            text(1, "x"),
            delta(1, type="thinking_delta", thinking="t"),
            delta(1, type="citations_delta", citation={"type": "char_location"}),
            text(2, "x"),
            delta(2, type="input_json_delta", partial_json='{"a":1}'),
            delta(2, type="citations_delta", citation={"type": "char_location"}),
        ]
    )
    assert message["content"] == [
        {"type": "text", "text": ""},
        {"type": "tool_use", "id": "t", "name": "f", "input": {}},
        {"type": "thinking", "thinking": ""},
    ]


def test_content_block_stop_carries_no_data_and_late_deltas_still_apply() -> None:
    message = fold(
        [
            start(),
            block(0, type="text", text=""),
            text(0, "a"),
            {"type": "content_block_stop", "index": 0, "text": "ignored"},
            text(0, "b"),
            STOP,
        ]
    )
    assert texts(message) == ["ab"]


def test_a_never_stopped_block_is_still_in_the_message() -> None:
    message = fold([start(), block(0, type="text", text=""), text(0, "partial")])
    assert texts(message) == ["partial"]


def test_the_last_non_blank_stop_reason_wins_verbatim() -> None:
    message = fold(
        [
            start(),
            message_delta(stop_reason="pause_turn"),
            message_delta(stop_reason="model_context_window_exceeded"),
            STOP,
        ]
    )
    assert message["stop_reason"] == "model_context_window_exceeded"


def test_message_start_stop_reason_stands_without_a_message_delta() -> None:
    assert fold([start(stop_reason="end_turn"), STOP])["stop_reason"] == "end_turn"
    assert fold([start(stop_reason=" ")])["stop_reason"] is None


def test_a_blank_stop_reason_changes_nothing() -> None:
    message = fold(
        [
            start(),
            message_delta(stop_reason="end_turn", stop_sequence=None),
            message_delta(stop_reason=None, stop_sequence="late"),
            message_delta(stop_reason=""),
            message_delta(stop_reason=7),
            {"type": "message_delta", "delta": None},
            STOP,
        ]
    )
    assert (message["stop_reason"], message["stop_sequence"]) == ("end_turn", None)


def test_stop_sequence_comes_with_the_stop_reason_that_set_it() -> None:
    message = fold(
        [
            start(),
            message_delta(stop_reason="max_tokens", stop_sequence=None),
            message_delta(stop_reason="stop_sequence", stop_sequence="\n\nHuman:"),
        ]
    )
    assert (message["stop_reason"], message["stop_sequence"]) == ("stop_sequence", "\n\nHuman:")
    wrong = fold(
        [start(stop_sequence="kept"), message_delta(stop_reason="end_turn", stop_sequence=5)]
    )
    assert wrong["stop_sequence"] is None
    untouched = fold([start(stop_sequence="as sent")])
    assert untouched["stop_sequence"] == "as sent"


def test_stop_details_object_replaces_and_a_blank_one_changes_nothing() -> None:
    details = {"type": "refusal", "category": "cyber", "explanation": None}
    message = fold(
        [
            start(stop_details={"type": "old"}),
            message_delta(stop_reason="refusal", stop_details=details),
            message_delta(stop_details=None),
            message_delta(stop_details="x"),
            STOP,
        ]
    )
    assert (message["stop_reason"], message["stop_details"]) == ("refusal", details)
    assert fold([start(stop_details={"type": "old"})])["stop_details"] == {"type": "old"}


def test_container_object_replaces_and_a_blank_one_changes_nothing() -> None:
    container = {"id": "container_1", "expires_at": "2026-01-01T00:00:00Z"}
    message = fold(
        [
            start(),
            message_delta(container=container),
            message_delta(container=None),
            message_delta(container=[]),
            STOP,
        ]
    )
    assert message["container"] == container
    assert "container" not in fold([start(), message_delta(container=None)])
