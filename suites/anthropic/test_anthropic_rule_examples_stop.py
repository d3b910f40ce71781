"""Rule examples: stop reason, stop sequence, stop details, container (AM-STOP-*,
AM-CONTAINER)."""

from __future__ import annotations

import pytest

from refold.reference import JSON, JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    START_USAGE,
    block_stop,
    message,
    message_delta,
    message_start,
    stop,
    text,
    text_delta,
    text_start,
)
from ._expect import expect_fold


def _answer(*deltas: JSONObject, **start: object) -> list[JSONObject]:
    """A one-block text answer "Hi", then `deltas` (message_delta events), message_stop."""
    return [
        message_start(**start),
        text_start(0),
        text_delta(0, "Hi"),
        block_stop(0),
        *deltas,
        stop(),
    ]


@rule("AM-STOP-REASON")
def test_the_message_delta_stop_reason_replaces_message_starts_null(check: Check) -> None:
    events = _answer(message_delta("max_tokens", None))
    expect_fold(check, events, message(text("Hi"), stop_reason="max_tokens"))


@rule("AM-STOP-REASON")
def test_a_null_stop_reason_after_end_turn_keeps_end_turn(check: Check) -> None:
    # AQ26 case 29: both official SDKs and Vercel assign the null over end_turn
    events = _answer(message_delta("end_turn", None), message_delta(None, None))
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-STOP-REASON")
def test_a_null_stop_reason_before_the_final_one_is_superseded(check: Check) -> None:
    # AQ26 case 28: earlier message_delta events may carry null while a classifier runs
    events = _answer(message_delta(None, None), message_delta("end_turn", None))
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-STOP-REASON")
def test_a_blank_or_wrong_typed_stop_reason_changes_nothing(check: Check) -> None:
    for blank in ("", "   ", 0, False, {"type": "end_turn"}, ["max_tokens"]):
        events = _answer(message_delta("end_turn", None), message_delta(blank, None))
        expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-STOP-REASON")
def test_a_message_delta_without_a_stop_reason_changes_nothing(check: Check) -> None:
    events = _answer(message_delta("end_turn", None), message_delta(), {"type": "message_delta"})
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-STOP-REASON")
def test_a_later_stop_reason_replaces_an_earlier_one_never_joins_it(check: Check) -> None:
    # AQ26 exp E: LangChain concatenates them into "end_turnmax_tokens"
    events = _answer(message_delta("end_turn", None), message_delta("max_tokens", None))
    expect_fold(check, events, message(text("Hi"), stop_reason="max_tokens"))


@pytest.mark.parametrize(
    "reason",
    [
        "pause_turn",
        "refusal",
        "model_context_window_exceeded",
        "tool_use",
        "stop_sequence",
        "a_future_reason",
    ],
)
@rule("AM-STOP-REASON")
def test_every_stop_reason_is_kept_verbatim_never_mapped(check: Check, reason: str) -> None:
    # AQ15, AQ17: litellm maps stop reasons onto its own vocabulary
    events = _answer(message_delta(reason, None))
    expect_fold(check, events, message(text("Hi"), stop_reason=reason))


@rule("AM-STOP-REASON")
def test_a_stream_with_no_message_delta_keeps_message_starts_stop_reason(check: Check) -> None:
    events = _answer(stop_reason="max_tokens")
    expect_fold(check, events, message(text("Hi"), stop_reason="max_tokens", usage=START_USAGE))


@rule("AM-STOP-SEQUENCE")
def test_the_stop_sequence_that_ended_the_message_is_kept(check: Check) -> None:
    # AQ17: litellm maps stop_sequence to end_turn and drops the sequence
    events = _answer(message_delta("stop_sequence", "\n\nHuman:"))
    expect_fold(
        check, events, message(text("Hi"), stop_reason="stop_sequence", stop_sequence="\n\nHuman:")
    )


@rule("AM-STOP-SEQUENCE", "AM-STOP-REASON")
def test_a_message_delta_with_a_blank_stop_reason_leaves_the_stop_sequence(check: Check) -> None:
    events = _answer(
        message_delta("stop_sequence", "END"),
        message_delta(None, None),
        message_delta(None, "OTHER"),
    )
    expect_fold(
        check, events, message(text("Hi"), stop_reason="stop_sequence", stop_sequence="END")
    )


@rule("AM-STOP-SEQUENCE")
def test_the_stop_sequence_follows_the_delta_that_last_set_the_stop_reason(check: Check) -> None:
    for last in (message_delta("max_tokens", None), message_delta("max_tokens")):
        events = _answer(message_delta("stop_sequence", "END"), last)
        expect_fold(
            check, events, message(text("Hi"), stop_reason="max_tokens", stop_sequence=None)
        )


# the later message_delta events repeat the stop reason, so that a fold which erases it
# with a null (AQ26, a STOP-REASON defect) does not fail the tests below too

_REFUSAL = {
    "type": "refusal",
    "category": "cyber",
    "explanation": "The request asks for working malware.",
}


@rule("AM-STOP-DETAILS")
def test_stop_details_arrive_on_message_delta_with_a_refusal(check: Check) -> None:
    # AQ16: "stop_details arrives on the message_delta event alongside stop_reason"
    events = _answer(message_delta("refusal", None, stop_details=_REFUSAL))
    expect_fold(check, events, message(text("Hi"), stop_reason="refusal", stop_details=_REFUSAL))


@rule("AM-STOP-DETAILS")
def test_a_blank_stop_details_changes_nothing(check: Check) -> None:
    blanks: tuple[JSON, ...] = (None, "refusal", [], 1)
    for blank in blanks:
        events = _answer(
            message_delta("refusal", None, stop_details=_REFUSAL),
            message_delta("refusal", None, stop_details=blank),
        )
        expect_fold(
            check, events, message(text("Hi"), stop_reason="refusal", stop_details=_REFUSAL)
        )


@rule("AM-STOP-DETAILS")
def test_a_later_stop_details_object_replaces_the_earlier_one_whole(check: Check) -> None:
    later = {"type": "refusal", "category": "bio"}
    events = _answer(
        message_delta("refusal", None, stop_details=_REFUSAL),
        message_delta("refusal", None, stop_details=later),
    )
    expect_fold(check, events, message(text("Hi"), stop_reason="refusal", stop_details=later))


_CONTAINER = {"id": "container_011CU", "expires_at": "2026-12-01T13:30:00Z"}


@rule("AM-CONTAINER")
def test_a_delta_container_replaces_message_starts_container(check: Check) -> None:
    later = {"id": "container_011CU", "expires_at": "2026-12-01T14:30:00Z"}
    events = _answer(message_delta("end_turn", None, container=later), container=_CONTAINER)
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn", container=later))


@rule("AM-CONTAINER")
def test_a_delta_container_is_reported_when_message_start_had_none(check: Check) -> None:
    events = _answer(message_delta("end_turn", None, container=_CONTAINER))
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn", container=_CONTAINER))


@rule("AM-CONTAINER")
def test_a_blank_container_changes_nothing(check: Check) -> None:
    blanks: tuple[JSON, ...] = (None, "container_011CU", [])
    for blank in blanks:
        events = _answer(
            message_delta("end_turn", None, container=_CONTAINER),
            message_delta("end_turn", None, container=blank),
        )
        expect_fold(
            check, events, message(text("Hi"), stop_reason="end_turn", container=_CONTAINER)
        )
