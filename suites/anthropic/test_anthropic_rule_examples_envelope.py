"""Rule examples: the Message envelope (AM-START-*, AM-TYPE-ROLE, AM-BEFORE-START)."""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    START_USAGE,
    block_start,
    block_stop,
    message,
    message_delta,
    message_start,
    ping,
    stop,
    text,
    text_delta,
    text_start,
    text_stream,
    tool_use,
)
from ._expect import expect_fold


@rule("AM-START-BASE")
def test_the_docs_basic_stream_folds_into_its_message(check: Check) -> None:
    # the streaming page's basic example, without usage
    events = text_stream("Hello", "!")
    expect_fold(check, events, message(text("Hello!"), stop_reason="end_turn"))


@rule("AM-START-BASE")
def test_every_key_of_message_start_is_kept_in_the_message(check: Check) -> None:
    start = message_start(
        container={"id": "container_011", "expires_at": "2026-12-01T13:00:00Z"},
        diagnostics={"trace_id": "abc"},
        x_gateway="edge-7",
    )
    events = [
        start,
        text_start(0),
        text_delta(0, "Hi"),
        block_stop(0),
        message_delta("end_turn", None),
        stop(),
    ]
    expected = message(
        text("Hi"),
        stop_reason="end_turn",
        container={"id": "container_011", "expires_at": "2026-12-01T13:00:00Z"},
        diagnostics={"trace_id": "abc"},
        x_gateway="edge-7",
    )
    expect_fold(check, events, expected)


@rule("AM-START-BASE")
def test_content_of_message_start_is_replaced_by_the_folded_blocks_not_appended_to(
    check: Check,
) -> None:
    # the docs send `content: []`; a fold that leaves the list empty loses the answer
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "Hi"),
        block_stop(0),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-START-CONTENT")
def test_blocks_in_message_start_are_the_first_blocks_and_its_stop_reason_stands(
    check: Check,
) -> None:
    events = [message_start(text("Done."), text("Bye."), stop_reason="end_turn"), stop()]
    expect_fold(
        check,
        events,
        message(text("Done."), text("Bye."), stop_reason="end_turn", usage=START_USAGE),
    )


@rule("AM-START-CONTENT", "AM-TOOL-NO-DELTA")
def test_a_programmatic_tool_call_in_message_start_is_the_message(check: Check) -> None:
    # AQ7: finished tool_use blocks (with a `caller`) in message_start, then message_stop
    call = tool_use(
        {"code": "print(1)"},
        id="toolu_01",
        name="run",
        caller={"type": "code_execution_20250825", "tool_id": "srvtoolu_01"},
    )
    events = [message_start(call, stop_reason="tool_use"), stop()]
    expect_fold(check, events, message(call, stop_reason="tool_use", usage=START_USAGE))


@rule("AM-START-CONTENT")
def test_blocks_streamed_after_message_start_content_follow_it(check: Check) -> None:
    events = [
        message_start(text("First.")),
        text_start(1),
        text_delta(1, "Second."),
        block_stop(1),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(text("First."), text("Second."), stop_reason="end_turn"))


@rule("AM-START-CONTENT")
def test_a_message_delta_replaces_the_stop_reason_message_start_carried(check: Check) -> None:
    events = [
        message_start(text("Paused."), stop_reason="pause_turn"),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(text("Paused."), stop_reason="end_turn"))


@rule("AM-START-CONTENT", "AM-BLOCK-REOPEN")
def test_a_block_start_for_an_index_message_start_filled_is_ignored(check: Check) -> None:
    events = [message_start(text("Kept.")), text_start(0, "Other"), stop()]
    expect_fold(check, events, message(text("Kept."), usage=START_USAGE))


@rule("AM-START-ONCE")
def test_a_second_message_start_is_ignored(check: Check) -> None:
    # AQ28 exp B: the TypeScript SDK throws on it
    second = message_start(
        text("Other."), id="msg_02", model="claude-haiku-4-5", stop_reason="max_tokens"
    )
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "Hi"),
        second,
        text_delta(0, "!"),
        block_stop(0),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(text("Hi!"), stop_reason="end_turn"))


@rule("AM-START-ONCE")
def test_a_repeated_message_start_with_the_same_id_keeps_the_blocks_folded_so_far(
    check: Check,
) -> None:
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "Hel"),
        message_start(),
        text_delta(0, "lo"),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(text("Hello"), stop_reason="end_turn"))


@rule("AM-TYPE-ROLE")
def test_a_message_start_without_type_and_role_gives_message_and_assistant(check: Check) -> None:
    start = message_start()
    del start["message"]["type"], start["message"]["role"]
    events = [
        start,
        text_start(0),
        text_delta(0, "Hi"),
        block_stop(0),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-TYPE-ROLE")
def test_blank_or_wrong_typed_type_and_role_give_message_and_assistant(check: Check) -> None:
    for type_value, role_value in ((None, "  "), ("", None), (1, ["assistant"])):
        events = [
            message_start(type=type_value, role=role_value),
            message_delta("end_turn", None),
            stop(),
        ]
        expect_fold(check, events, message(stop_reason="end_turn"))


@rule("AM-BEFORE-START")
def test_a_ping_before_message_start_changes_nothing_and_never_raises(check: Check) -> None:
    # AQ23: accumulate_event raises "Unexpected event order, got ping before message_start"
    events = [ping(), *text_stream("Hi")]
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-BEFORE-START")
def test_block_events_and_message_delta_before_message_start_change_nothing(check: Check) -> None:
    early = [
        text_start(0, "Early "),
        text_delta(0, "lost"),
        block_stop(0),
        block_start(1, {"type": "text", "text": "ghost"}),
        message_delta("max_tokens", "STOP"),
        {"type": "vertex_event"},
    ]
    events = [*early, *text_stream("Hi")]
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-BEFORE-START")
def test_a_message_stop_before_message_start_changes_nothing(check: Check) -> None:
    # it ends nothing: the message that starts after it folds as usual
    events = [stop(), *text_stream("Hi")]
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-BEFORE-START")
def test_a_message_start_whose_message_is_not_an_object_starts_nothing(check: Check) -> None:
    for bad in (None, "msg_01", [{"id": "msg_01"}]):
        events = [
            {"type": "message_start", "message": bad},
            text_start(0),
            text_delta(0, "lost"),
            *text_stream("Hi"),
        ]
        expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))
