"""Rule examples: the incremental interface (LIFE-RS-EMPTY, LIFE-RS-SNAPSHOT,
LIFE-RS-FINISHED, LIFE-RS-AFTER), read through `check.accumulator()`."""

from __future__ import annotations

import copy
from typing import Any

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    ENVELOPE,
    completed,
    created,
    error_event,
    failed,
    in_progress,
    incomplete,
    item_added,
    item_done,
    keepalive,
    message,
    part_added,
    queued,
    response,
    text_delta,
    text_done,
    text_part,
    text_stream,
    web_search,
)
from ._expect import add_all, expect_finished, expect_response

_HI = message(text_part("Hi"))
_MAX_TOKENS: JSONObject = {"reason": "max_output_tokens"}


def _snapshot(*output: JSONObject, **fields: Any) -> JSONObject:
    """A snapshot of the default lifecycle response: status in_progress."""
    return response(*output, status="in_progress", **fields)


def _expect_read(check: Check, acc: Any, expected: JSONObject, *, when: str) -> JSONObject:
    received: JSONObject = acc.response()
    expect_response(check, received, expected, events=list(acc.events), when=when)
    return received


@rule("LIFE-RS-EMPTY")
def test_reading_the_response_before_any_event_raises(check: Check) -> None:
    acc = check.accumulator()
    found = acc.response_error()
    if found is None:
        raise check.fail(
            "a Response could be read before any event was added", events=list(acc.events)
        )
    if found.kind != "raised":
        raise check.fail(
            f"reading the Response before any event failed ({found.kind}) "
            f"instead of raising an error",
            target_error=str(found),
            events=[],
        )


@rule("LIFE-RS-SNAPSHOT")
def test_before_the_terminal_the_result_is_the_latest_lifecycle_response_with_the_items(
    check: Check,
) -> None:
    acc = check.accumulator()
    add_all(
        acc,
        [
            created(),
            in_progress(),
            item_added(0, message(status="in_progress")),
            part_added(0),
            text_delta(0, "Hel"),
        ],
    )
    _expect_read(
        check, acc, _snapshot(message(text_part("Hel"), status="in_progress")), when="the snapshot"
    )
    acc.add(text_delta(0, "lo"))
    _expect_read(
        check,
        acc,
        _snapshot(message(text_part("Hello"), status="in_progress")),
        when="the snapshot after one more delta",
    )


@rule("LIFE-RS-SNAPSHOT")
def test_a_snapshot_keeps_the_statuses_as_announced(check: Check) -> None:
    # a hosted tool's status events change no status; only its done item would
    acc = check.accumulator()
    add_all(
        acc,
        [
            queued(),
            item_added(0, web_search(status="in_progress")),
            {"type": "response.web_search_call.searching", "output_index": 0, "item_id": "ws_01"},
        ],
    )
    _expect_read(
        check,
        acc,
        response(web_search(status="in_progress"), status="queued"),
        when="the snapshot while queued",
    )
    acc.add(in_progress())
    _expect_read(
        check,
        acc,
        _snapshot(web_search(status="in_progress")),
        when="the snapshot once in progress",
    )


@rule("LIFE-RS-SNAPSHOT")
def test_a_snapshot_without_a_lifecycle_event_is_a_bare_in_progress_response(check: Check) -> None:
    # a resumed stream (starting_after) starts with item events
    acc = check.accumulator()
    add_all(acc, [item_added(0, message(status="in_progress")), part_added(0), text_delta(0, "Hi")])
    expected = {
        "object": "response",
        "status": "in_progress",
        "output": [message(text_part("Hi"), status="in_progress")],
    }
    _expect_read(check, acc, expected, when="the snapshot without response.created")


@rule("LIFE-RS-SNAPSHOT")
def test_a_response_handed_out_never_changes_and_events_are_never_mutated(check: Check) -> None:
    acc = check.accumulator()
    events = text_stream("Hel", "lo")
    originals = copy.deepcopy(events)
    reads: list[tuple[JSONObject, JSONObject]] = []
    for event in events:
        acc.add(event)
        read = acc.response()
        reads.append((read, copy.deepcopy(read)))
    for number, (read, kept) in enumerate(reads):
        if check.differences(kept, read):
            raise check.fail(
                f"the Response read after event {number} changed later",
                events=originals,
                expected=kept,
                received=read,
            )
    if check.item_differences(originals, events):
        raise check.fail(
            "the target mutated the events it was given",
            events=originals,
            expected=originals,
            received=events,
        )


@rule("LIFE-RS-SNAPSHOT")
def test_changing_a_response_handed_out_changes_nothing_read_later(check: Check) -> None:
    acc = check.accumulator()
    add_all(
        acc,
        [
            created(),
            item_added(0, message(status="in_progress")),
            part_added(0),
            text_delta(0, "Hi"),
        ],
    )
    first = acc.response()
    first["status"] = "tampered"
    first["output"].append({"type": "message", "id": "msg_x"})
    _expect_read(
        check,
        acc,
        _snapshot(message(text_part("Hi"), status="in_progress")),
        when="the snapshot after the caller changed an earlier one",
    )


@rule("LIFE-RS-FINISHED")
def test_finished_only_once_a_terminal_event_arrived(check: Check) -> None:
    for final in (completed(_HI), incomplete(_HI, usage=None), failed()):
        acc = check.accumulator()
        events = text_stream("Hi")[:-1]
        for event in events:
            acc.add(event)
            expect_finished(check, acc, expected=False)
        acc.add(final)
        expect_finished(check, acc, expected=True)


@rule("LIFE-RS-FINISHED", "RS-ERROR-EVENT")
def test_an_error_event_does_not_finish_the_fold(check: Check) -> None:
    # RQ18: the stream may go on after it; openai-node throws APIError on it
    nested: JSONObject = {"type": "error", "error": {"type": "server_error", "message": "x"}}
    acc = check.accumulator()
    add_all(acc, [created(), error_event(), nested])
    expect_finished(check, acc, expected=False)
    _expect_read(check, acc, _snapshot(), when="the snapshot after error events")


@rule("LIFE-RS-FINISHED")
def test_a_stream_that_ends_unfinished_keeps_status_in_progress(check: Check) -> None:
    # the last item's done event is not the end of the response
    acc = check.accumulator()
    add_all(acc, text_stream("Hi")[:-1])
    expect_finished(check, acc, expected=False)
    _expect_read(check, acc, _snapshot(_HI), when="the snapshot of a cut stream")


@rule("LIFE-RS-FINISHED", "RS-KEEPALIVE")
def test_keepalives_and_unknown_events_do_not_finish_the_fold(check: Check) -> None:
    acc = check.accumulator()
    add_all(
        acc,
        [
            created(),
            keepalive(),
            {"type": "response.done", "response": response()},
            {"type": "response.cancelled"},
        ],
    )
    expect_finished(check, acc, expected=False)


@rule("LIFE-RS-FINISHED", "RS-WRONG-TYPE")
def test_a_terminal_event_whose_response_is_not_an_object_does_not_finish_the_fold(
    check: Check,
) -> None:
    acc = check.accumulator()
    add_all(
        acc,
        [
            created(),
            {"type": "response.completed", "response": None},
            {"type": "response.failed", "response": "failed"},
            {"type": "response.incomplete"},
        ],
    )
    expect_finished(check, acc, expected=False)


@rule("LIFE-RS-AFTER", "RS-TERMINAL-REPEAT")
def test_a_terminal_after_the_terminal_replaces_it(check: Check) -> None:
    acc = check.accumulator()
    add_all(acc, [*text_stream("Hi"), incomplete(_HI)])
    expect_finished(check, acc, expected=True)
    _expect_read(
        check,
        acc,
        response(_HI, status="incomplete", incomplete_details=_MAX_TOKENS),
        when="the Response after a second terminal",
    )


@rule("LIFE-RS-AFTER", "RS-OUTPUT-RECOVER", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS")
def test_item_events_after_the_terminal_change_the_recovered_output(check: Check) -> None:
    acc = check.accumulator()
    add_all(
        acc,
        [
            created(),
            item_added(0, message(status="in_progress")),
            part_added(0),
            text_delta(0, "Hel"),
            completed(),
        ],
    )
    acc.add(text_delta(0, "lo"))
    expect_finished(check, acc, expected=True)
    _expect_read(
        check, acc, response(message(text_part("Hello"))), when="the Response after a late delta"
    )


@rule("LIFE-RS-AFTER", "RS-OUTPUT-TERMINAL")
def test_item_events_after_the_terminal_leave_a_terminal_output(check: Check) -> None:
    acc = check.accumulator()
    add_all(
        acc,
        [
            *text_stream("Hi"),
            text_delta(0, " there"),
            text_done(0, "Other"),
            item_added(1, message(text_part("late"), id="msg_late")),
            item_done(1, message(text_part("late"), id="msg_late")),
        ],
    )
    expect_finished(check, acc, expected=True)
    _expect_read(check, acc, response(_HI), when="the Response after late item events")


@rule("LIFE-RS-AFTER", "RS-ENV-FILL", "RS-TERMINAL-BASE")
def test_a_lifecycle_event_after_the_terminal_changes_no_top_level_key(check: Check) -> None:
    # RS-ENV-FILL fills from the lifecycle responses *earlier* than the terminal
    acc = check.accumulator()
    sparse = {
        "type": "response.completed",
        "response": {**ENVELOPE, "status": "completed", "output": [_HI]},
    }
    add_all(acc, [created(), sparse, in_progress(model="gpt-late", service_tier="flex")])
    expect_finished(check, acc, expected=True)
    _expect_read(check, acc, response(_HI), when="the Response after a late lifecycle event")


@rule("LIFE-RS-AFTER", "RS-ERROR-EVENT")
def test_an_error_event_after_the_terminal_changes_nothing(check: Check) -> None:
    # praxis-proxy #841: an error after completed persisted as success, or as failure
    acc = check.accumulator()
    add_all(acc, [*text_stream("Hi"), error_event()])
    expect_finished(check, acc, expected=True)
    _expect_read(check, acc, response(_HI), when="the Response after a late error event")
