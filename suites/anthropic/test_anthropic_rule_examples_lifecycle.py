"""Rule examples: the incremental fold's lifecycle (AM-LIFE-*), through `check.accumulator()`."""

from __future__ import annotations

from functools import partial
from typing import Any

from refold.reference import JSON
from refold.run.checks import Check
from refold.run.marks import rule

from .._examples_lifecycle import expect_kept_after, expect_latest_read, expect_never_mutated
from ._events import (
    START_USAGE,
    block_stop,
    citation_delta,
    error,
    input_delta,
    message,
    message_delta,
    message_start,
    ping,
    stop,
    text,
    text_delta,
    text_start,
    text_stream,
    tool_start,
)
from ._expect import add_all, expect_finished, expect_message

_OVERLOADED = {"type": "overloaded_error", "message": "Overloaded"}


_expect_response = partial(expect_latest_read, expect_message, what="the Message")
"""Fail unless the Message read after the latest event is the expected one."""


def _expect_no_message(check: Check, acc: Any, *, rule: str = "AM-LIFE-EMPTY") -> None:
    found = acc.response_error()
    if found is None:
        raise check.fail(
            "the Message could be read although no message_start was folded",
            rules=(rule,),
            events=list(acc.events),
        )
    if found.kind != "raised":
        raise check.fail(
            f"reading the Message before message_start failed ({found.kind}) "
            f"instead of raising an error",
            rules=(rule,),
            events=list(acc.events),
            target_error=str(found),
        )


def _expect_error(check: Check, acc: Any, expected: JSON) -> None:
    received = acc.error
    if received is None:
        raise check.fail(
            "the error event was not recorded (error is None)",
            rules=("AM-LIFE-ERROR",),
            events=list(acc.events),
        )
    found = check.differences(expected, received)
    if found:
        raise check.fail(
            "the recorded error is not the error event's `error` object",
            rules=("AM-LIFE-ERROR",),
            events=list(acc.events),
            differences=found,
            expected=expected,
            received=received,
        )


@rule("AM-LIFE-EMPTY")
def test_reading_the_message_before_any_event_raises(check: Check) -> None:
    _expect_no_message(check, check.accumulator())


@rule("AM-LIFE-EMPTY")
def test_reading_the_message_after_only_pings_and_deltas_raises(check: Check) -> None:
    acc = check.accumulator()
    add_all(acc, [ping(), text_start(0), text_delta(0, "Hi"), message_delta("end_turn", None)])
    _expect_no_message(check, acc)


@rule("AM-LIFE-EMPTY")
def test_reading_the_message_after_an_error_before_message_start_raises(check: Check) -> None:
    # an overloaded error can be a stream's only event (the docs' error events)
    acc = check.accumulator()
    acc.add(error())
    _expect_no_message(check, acc)


@rule("AM-LIFE-EMPTY", "AM-BEFORE-START")
def test_a_message_start_whose_message_is_not_an_object_leaves_nothing_to_read(
    check: Check,
) -> None:
    acc = check.accumulator()
    acc.add({"type": "message_start", "message": None})
    _expect_no_message(check, acc, rule="AM-BEFORE-START")


@rule("AM-LIFE-EMPTY")
def test_one_message_start_is_enough_to_read_a_message(check: Check) -> None:
    acc = check.accumulator()
    acc.add(message_start())
    _expect_response(check, acc, message(usage=START_USAGE))


@rule("AM-LIFE-SNAPSHOT")
def test_a_message_handed_out_never_changes_after_later_events(check: Check) -> None:
    acc = check.accumulator()
    first, second, third, *rest = text_stream("Hel", "lo")
    add_all(acc, [first, second, third])
    expect_kept_after(
        check,
        acc,
        [*rest, text_start(1, "More")],
        "a Message already handed out changed when later events were folded",
    )


@rule("AM-LIFE-SNAPSHOT")
def test_changing_a_message_handed_out_never_changes_the_next_one(check: Check) -> None:
    acc = check.accumulator()
    add_all(acc, [message_start(), text_start(0), text_delta(0, "Hi")])
    handed_out = acc.response()
    handed_out["content"][0]["text"] = "changed"
    handed_out["content"].append({"type": "text", "text": "added"})
    handed_out["id"] = "msg_changed"
    add_all(acc, [text_delta(0, "!"), block_stop(0), message_delta("end_turn", None), stop()])
    _expect_response(check, acc, message(text("Hi!"), stop_reason="end_turn"))


_never_mutated = partial(expect_never_mutated, rules=("AM-LIFE-SNAPSHOT",))
"""Fail (AM-LIFE-SNAPSHOT) unless folding and reading the events leaves them as given."""


@rule("AM-LIFE-SNAPSHOT")
def test_folding_and_reading_never_mutate_text_events(check: Check) -> None:
    # a fold that uses message_start's message, or a block start, as its working copy
    # appends to the caller's `content` list or extends the caller's `text`
    _never_mutated(
        check,
        [
            message_start(),
            text_start(0, "Hel"),
            text_delta(0, "lo"),
            block_stop(0),
            message_delta("end_turn", None),
            stop(),
        ],
    )


@rule("AM-LIFE-SNAPSHOT", "AM-CITATIONS-APPEND")
def test_folding_and_reading_never_mutate_a_start_events_citations(check: Check) -> None:
    cited = {
        "type": "char_location",
        "cited_text": "x",
        "document_index": 0,
        "start_char_index": 0,
        "end_char_index": 1,
    }
    _never_mutated(
        check,
        [
            message_start(),
            text_start(0, "", citations=[cited]),
            citation_delta(0, dict(cited, cited_text="y")),
            text_delta(0, "x"),
            stop(),
        ],
    )


@rule("AM-LIFE-SNAPSHOT", "AM-TOOL-JOIN")
def test_folding_and_reading_never_mutate_a_tool_blocks_start_input(check: Check) -> None:
    _never_mutated(
        check,
        [
            message_start(),
            tool_start(0, input={}),
            input_delta(0, '{"a": '),
            input_delta(0, "1}"),
            message_delta("tool_use", None),
            stop(),
        ],
    )


@rule("AM-LIFE-SNAPSHOT", "AM-USAGE-REPLACE")
def test_folding_and_reading_never_mutate_message_starts_usage(check: Check) -> None:
    _never_mutated(
        check,
        [
            message_start(usage={"input_tokens": 25, "output_tokens": 1}),
            message_delta("end_turn", None, usage={"output_tokens": 15}),
            stop(),
        ],
    )


@rule("AM-LIFE-FINISHED")
def test_finished_only_once_message_stop_arrives(check: Check) -> None:
    acc = check.accumulator()
    *body, last = text_stream("Hi")
    for event in body:
        acc.add(event)
        expect_finished(check, acc, expected=False)
    acc.add(last)
    expect_finished(check, acc, expected=True)


@rule("AM-LIFE-FINISHED")
def test_message_start_then_message_stop_alone_is_finished(check: Check) -> None:
    # AQ7: programmatic tool calling sends finished blocks in message_start, then the stop
    acc = check.accumulator()
    add_all(acc, [message_start(text("Done."), stop_reason="end_turn"), stop()])
    expect_finished(check, acc, expected=True)


@rule("AM-LIFE-FINISHED", "AM-BEFORE-START")
def test_a_message_stop_before_message_start_does_not_finish(check: Check) -> None:
    acc = check.accumulator()
    add_all(acc, [ping(), stop()])
    expect_finished(check, acc, expected=False)
    add_all(acc, text_stream("Hi"))
    expect_finished(check, acc, expected=True)
    _expect_response(
        check, acc, message(text("Hi"), stop_reason="end_turn"), rules=("AM-BEFORE-START",)
    )


@rule("AM-LIFE-FINISHED", "AM-LIFE-ERROR")
def test_a_message_stop_after_an_error_does_not_finish(check: Check) -> None:
    acc = check.accumulator()
    add_all(acc, [message_start(), text_start(0), text_delta(0, "Hi"), error(), stop()])
    expect_finished(check, acc, expected=False)


@rule("AM-LIFE-ERROR")
def test_an_error_mid_stream_is_recorded_and_the_partial_message_kept(check: Check) -> None:
    # AQ18: swallowed errors make a truncated answer look complete
    acc = check.accumulator()
    add_all(acc, [message_start(), text_start(0), text_delta(0, "Hel"), error()])
    _expect_error(check, acc, _OVERLOADED)
    expect_finished(check, acc, expected=False, rule="AM-LIFE-ERROR")
    _expect_response(check, acc, message(text("Hel"), usage=START_USAGE))


@rule("AM-LIFE-ERROR")
def test_events_after_an_error_change_nothing(check: Check) -> None:
    # Anthropic closes the stream after an error: anything later is not this message
    acc = check.accumulator()
    add_all(
        acc,
        [
            message_start(),
            text_start(0),
            text_delta(0, "Hel"),
            error(),
            text_delta(0, "lo"),
            text_start(1, "More"),
            message_delta("end_turn", None),
            error("api_error", "Internal"),
            stop(),
        ],
    )
    _expect_error(check, acc, _OVERLOADED)
    expect_finished(check, acc, expected=False, rule="AM-LIFE-ERROR")
    _expect_response(check, acc, message(text("Hel"), usage=START_USAGE))


@rule("AM-LIFE-ERROR")
def test_the_captured_error_payload_is_recorded_and_never_enters_the_message(check: Check) -> None:
    # karthink/gptel#1512: `details: null` in the error and a top-level `request_id`
    event = {
        "type": "error",
        "request_id": "req_011CU",
        "error": {"type": "overloaded_error", "message": "Overloaded", "details": None},
    }
    acc = check.accumulator()
    add_all(acc, [message_start(), text_start(0), text_delta(0, "Hi"), event])
    _expect_error(
        check, acc, {"type": "overloaded_error", "message": "Overloaded", "details": None}
    )
    _expect_response(check, acc, message(text("Hi"), usage=START_USAGE))


@rule("AM-LIFE-ERROR")
def test_an_error_event_without_an_error_object_is_recorded_as_empty(check: Check) -> None:
    for event in (
        {"type": "error"},
        {"type": "error", "error": None},
        {"type": "error", "error": "Overloaded"},
    ):
        acc = check.accumulator()
        add_all(acc, [message_start(), event])
        _expect_error(check, acc, {})
        expect_finished(check, acc, expected=False, rule="AM-LIFE-ERROR")


@rule("AM-LIFE-ERROR")
def test_no_error_is_recorded_when_no_error_event_came(check: Check) -> None:
    acc = check.accumulator()
    add_all(acc, text_stream("Hi"))
    if acc.error is not None:
        raise check.fail(
            f"error is {acc.error!r} although no error event was folded", events=list(acc.events)
        )


@rule("AM-LIFE-ERROR", "AM-BEFORE-START")
def test_an_error_before_message_start_is_terminal(check: Check) -> None:
    # an overloaded error can be the first event: the message that follows is not folded
    acc = check.accumulator()
    add_all(acc, [error(), *text_stream("Hi")])
    _expect_error(check, acc, _OVERLOADED)
    expect_finished(check, acc, expected=False, rule="AM-LIFE-ERROR")
    _expect_no_message(check, acc, rule="AM-LIFE-ERROR")


@rule("AM-LIFE-TRUNCATED")
def test_a_stream_ending_without_message_stop_is_not_finished_and_keeps_the_partial_message(
    check: Check,
) -> None:
    # AQ19: TypeScript throws, LangChain and Vercel lose what message_delta carried
    acc = check.accumulator()
    add_all(
        acc,
        [
            message_start(),
            text_start(0),
            text_delta(0, "Hel"),
            block_stop(0),
            text_start(1),
            text_delta(1, "open"),
            message_delta("max_tokens", None),
        ],
    )
    expect_finished(check, acc, expected=False, rule="AM-LIFE-TRUNCATED")
    _expect_response(check, acc, message(text("Hel"), text("open"), stop_reason="max_tokens"))


@rule("AM-LIFE-TRUNCATED", "AM-TOOL-INVALID")
def test_a_stream_cut_inside_a_tool_block_is_not_finished_and_keeps_the_raw_input(
    check: Check,
) -> None:
    # brightwave-inc/tidebreak#1122: a half tool call handed on as finished
    acc = check.accumulator()
    add_all(acc, [message_start(), tool_start(0), input_delta(0, '{"location": "Par')])
    expect_finished(check, acc, expected=False, rule="AM-LIFE-TRUNCATED")
    block = {
        "type": "tool_use",
        "id": "toolu_01",
        "name": "get_weather",
        "input": '{"location": "Par',
    }
    _expect_response(check, acc, message(block, usage=START_USAGE))


@rule("AM-LIFE-AFTER-STOP")
def test_events_after_message_stop_change_nothing(check: Check) -> None:
    # AQ28 exp E: Python and LangChain fold late text, stop reason and usage in
    late = [
        text_delta(0, " late"),
        text_start(1, "More"),
        message_delta("max_tokens", "X"),
        message_start(id="msg_02"),
        stop(),
    ]
    acc = check.accumulator()
    add_all(acc, [*text_stream("Hi"), *late])
    expect_finished(check, acc, expected=True, rule="AM-LIFE-AFTER-STOP")
    _expect_response(check, acc, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-LIFE-AFTER-STOP")
def test_an_error_after_message_stop_leaves_the_message_finished(check: Check) -> None:
    acc = check.accumulator()
    add_all(acc, [*text_stream("Hi"), error()])
    expect_finished(check, acc, expected=True, rule="AM-LIFE-AFTER-STOP")
    _expect_response(check, acc, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-LIFE-TRUNCATED")
def test_a_stream_ending_right_after_message_start_is_an_empty_unfinished_message(
    check: Check,
) -> None:
    acc = check.accumulator()
    add_all(acc, [message_start(), ping()])
    expect_finished(check, acc, expected=False, rule="AM-LIFE-TRUNCATED")
    _expect_response(check, acc, message(usage=START_USAGE))


@rule("AM-LIFE-AFTER-STOP")
def test_a_second_message_after_message_stop_is_not_folded_in(check: Check) -> None:
    acc = check.accumulator()
    add_all(acc, [*text_stream("Hi"), *text_stream("Other", stop_reason="max_tokens")])
    expect_finished(check, acc, expected=True, rule="AM-LIFE-AFTER-STOP")
    _expect_response(check, acc, message(text("Hi"), stop_reason="end_turn"))
