"""Rule examples: terminal outcomes (RS-TERMINAL-EVENTS, RS-INCOMPLETE, RS-FAILED,
RS-ERROR-EVENT, RS-TERMINAL-REPEAT, RS-SEQ-ARRIVAL)."""

from __future__ import annotations

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    completed,
    created,
    error_event,
    failed,
    in_progress,
    incomplete,
    item_added,
    item_done,
    message,
    part_added,
    response,
    terminal,
    text_delta,
    text_part,
    text_stream,
)
from ._expect import expect_fold

_HI = message(text_part("Hi"))
_MAX_TOKENS: JSONObject = {"reason": "max_output_tokens"}
_ERROR: JSONObject = {
    "code": "server_error",
    "message": "The server had an error while processing your request.",
}


def _answered(final: JSONObject, item: JSONObject = _HI) -> list[JSONObject]:
    return [
        created(),
        in_progress(),
        item_added(0, message(status="in_progress")),
        item_done(0, item),
        final,
    ]


def _numbered(events: list[JSONObject], numbers: list[int | None]) -> list[JSONObject]:
    """`events` with `sequence_number`s (None: without one)."""
    return [
        event if number is None else {**event, "sequence_number": number}
        for event, number in zip(events, numbers, strict=True)
    ]


@rule("RS-TERMINAL-EVENTS", "RS-INCOMPLETE")
def test_response_incomplete_is_a_result_not_an_exception(check: Check) -> None:
    # RQ17: openai-python's get_final_response raises "Didn't receive a
    # `response.completed` event."
    cut = message(text_part("The answer is"), status="incomplete")
    events = _answered(incomplete(cut), item=cut)
    expected = response(cut, status="incomplete", incomplete_details=_MAX_TOKENS)
    expect_fold(check, events, expected)


@rule("RS-TERMINAL-EVENTS", "RS-FAILED")
def test_response_failed_is_a_result_not_an_exception(check: Check) -> None:
    # RQ18: LangChain raises ValueError, litellm reports `stop`
    events = [created(), in_progress(), failed()]
    expect_fold(check, events, response(status="failed", error=_ERROR))


@rule("RS-INCOMPLETE")
def test_a_content_filter_stop_keeps_its_reason(check: Check) -> None:
    cut = message(text_part("Well"), status="incomplete")
    events = _answered(incomplete(cut, reason="content_filter"), item=cut)
    expected = response(cut, status="incomplete", incomplete_details={"reason": "content_filter"})
    expect_fold(check, events, expected)


@rule("RS-FAILED")
def test_a_failed_responses_error_object_is_kept_whole(check: Check) -> None:
    # new-api #3142: a failure sent with HTTP 200; the error carries more than code/message
    error = {
        "code": "rate_limit_exceeded",
        "message": "Rate limit reached",
        "param": None,
        "type": "tokens",
    }
    events = _answered(terminal("failed", response(_HI, status="failed", error=error)))
    expect_fold(check, events, response(_HI, status="failed", error=error))


@rule("RS-ERROR-EVENT")
def test_an_error_event_is_never_copied_into_the_response(check: Check) -> None:
    # RQ18: a flat `error` event (openai-python's type) and a nested one (first-party)
    for error in (
        error_event(),
        {"type": "error", "error": {"type": "server_error", "message": "nested"}},
    ):
        events = text_stream("Hel", "lo")
        events.insert(4, error)
        expect_fold(check, events, response(message(text_part("Hello"))))


@rule("RS-ERROR-EVENT", "RS-TERMINAL-REPEAT")
def test_an_error_event_before_the_terminal_leaves_its_outcome(check: Check) -> None:
    # the stream goes on after the error: the terminal decides the outcome
    events = _answered(completed(_HI))
    events.insert(3, error_event(sequence_number=1))
    expect_fold(check, events, response(_HI))


@rule("RS-TERMINAL-REPEAT")
def test_a_repeated_completed_is_not_concatenated(check: Check) -> None:
    # RQ19: LangChain reads status "completedcompleted"
    events = [*text_stream("Hi"), completed(_HI)]
    expect_fold(check, events, response(_HI))


@rule("RS-TERMINAL-REPEAT", "RS-TERMINAL-EVENTS", "RS-INCOMPLETE")
def test_a_second_terminal_event_replaces_the_first(check: Check) -> None:
    events = [*_answered(completed(_HI, model="gpt-5-a")), incomplete(_HI, model="gpt-5-b")]
    expected = response(_HI, status="incomplete", model="gpt-5-b", incomplete_details=_MAX_TOKENS)
    expect_fold(check, events, expected)


@rule("RS-TERMINAL-REPEAT", "RS-FAILED")
def test_a_completed_after_failed_replaces_it(check: Check) -> None:
    events = [*_answered(failed(_HI)), completed(_HI)]
    expect_fold(check, events, response(_HI))


@rule("RS-SEQ-ARRIVAL", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_sequence_numbers_out_of_order_never_reorder_the_events(check: Check) -> None:
    # RQ12: annotation events numbered before earlier deltas (litellm #28899)
    events = _numbered(
        [
            created(),
            item_added(0, message(status="in_progress")),
            part_added(0),
            text_delta(0, "a"),
            text_delta(0, "b"),
            text_delta(0, "c"),
            completed(),
        ],
        [0, 1, 2, 9, 4, 3, 10],
    )
    expect_fold(check, events, response(message(text_part("abc"))))


@rule("RS-SEQ-ARRIVAL", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_repeated_sequence_numbers_are_never_deduplicated(check: Check) -> None:
    # RQ12: a default `0` on every event
    events = _numbered(
        [
            created(),
            item_added(0, message(status="in_progress")),
            part_added(0),
            text_delta(0, "ab"),
            text_delta(0, "ab"),
            completed(),
        ],
        [0, 0, 0, 0, 0, 0],
    )
    expect_fold(check, events, response(message(text_part("abab"))))


@rule("RS-SEQ-ARRIVAL")
def test_gaps_and_missing_sequence_numbers_change_nothing(check: Check) -> None:
    # RQ12: gaps after guardrail edits (GoModel #953); frames without one (VTCode #731)
    events = text_stream("Hel", "lo")
    numbered = _numbered(events, [0, 5, None, 17, 18, None, 40, 41, 1000, None])
    expect_fold(check, numbered, response(message(text_part("Hello"))))
