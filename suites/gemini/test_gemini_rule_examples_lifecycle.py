"""Rule examples: the incremental fold's lifecycle (GM-LIFE-*), through `check.accumulator()`.

Gemini has no terminal chunk: the fold is finished once every candidate has a finish
reason (or the prompt was blocked) and no error chunk came.
"""

from __future__ import annotations

import copy
from functools import partial
from typing import Any

from refold.reference import JSON
from refold.run.checks import Check
from refold.run.marks import rule

from .._examples_lifecycle import expect_kept_after, expect_latest_read
from ._chunks import USAGE, answer, candidate, chunk, response, text, text_stream
from ._expect import add_all, expect_finished, expect_response

_ERROR = {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}


_expect_read = partial(expect_latest_read, expect_response, what="the response")
"""Fail unless the response read after the latest chunk is the expected one."""


def _expect_error(check: Check, acc: Any, expected: JSON) -> None:
    received = acc.error
    found = check.differences(expected, received) if received is not None else None
    if received is None or found:
        raise check.fail(
            f"error reads {received!r}, expected the error chunk's error {expected!r}",
            rules=("GM-LIFE-ERROR",),
            events=list(acc.events),
            expected=expected,
            received=received,
        )


@rule("GM-LIFE-EMPTY")
def test_reading_the_response_before_any_chunk_raises(check: Check) -> None:
    acc = check.accumulator()
    found = acc.response_error()
    if found is None or found.kind != "raised":
        how = "returned a response" if found is None else f"failed ({found.kind})"
        raise check.fail(
            f"response() {how} before any chunk was added, expected a documented error",
            rules=("GM-LIFE-EMPTY",),
            events=[],
        )


@rule("GM-LIFE-SNAPSHOT")
def test_a_response_handed_out_never_changes_after_later_chunks(check: Check) -> None:
    acc = check.accumulator()
    first, second = text_stream("Hel", "lo")
    acc.add(first)
    expect_kept_after(
        check, acc, [second], "a response already handed out changed when a later chunk was folded"
    )


@rule("GM-LIFE-SNAPSHOT")
def test_the_fold_never_mutates_the_chunks_it_was_given(check: Check) -> None:
    chunks = text_stream("Hel", "lo")
    sent = copy.deepcopy(chunks)
    acc = check.accumulator()
    add_all(acc, chunks)
    acc.response()
    found = check.item_differences(sent, chunks)
    if found:
        raise check.fail("the fold changed the chunks it was given", events=sent, differences=found)


@rule("GM-LIFE-FINISHED")
def test_the_fold_is_finished_once_the_candidate_has_a_finish_reason(check: Check) -> None:
    acc = check.accumulator()
    first, second = text_stream("Hel", "lo")
    acc.add(first)
    expect_finished(check, acc, expected=False, rule="GM-LIFE-TRUNCATED")
    acc.add(second)
    expect_finished(check, acc, expected=True)


@rule("GM-LIFE-FINISHED", "GM-LIFE-TRUNCATED")
def test_two_candidates_are_finished_only_when_both_are(check: Check) -> None:
    acc = check.accumulator()
    acc.add(chunk(candidate(text("A"), index=0), candidate(text("B"), index=1)))
    acc.add(chunk(candidate(index=0, finishReason="STOP")))
    expect_finished(check, acc, expected=False, rule="GM-LIFE-TRUNCATED")
    acc.add(chunk(candidate(index=1, finishReason="STOP")))
    expect_finished(check, acc, expected=True)


@rule("GM-LIFE-FINISHED")
def test_a_blocked_prompt_is_finished(check: Check) -> None:
    acc = check.accumulator()
    acc.add(chunk(promptFeedback={"blockReason": "PROHIBITED_CONTENT"}))
    expect_finished(check, acc, expected=True)


@rule("GM-LIFE-ERROR")
def test_an_error_chunk_is_recorded_and_the_partial_response_stands(check: Check) -> None:
    acc = check.accumulator()
    acc.add(chunk(candidate(text("Hel"))))
    acc.add({"error": _ERROR})
    _expect_error(check, acc, _ERROR)
    expect_finished(check, acc, expected=False, rule="GM-LIFE-ERROR")
    _expect_read(check, acc, response(candidate(text("Hel"))), rules=("GM-LIFE-ERROR",))


@rule("GM-LIFE-ERROR")
def test_chunks_after_an_error_chunk_change_nothing(check: Check) -> None:
    acc = check.accumulator()
    acc.add(chunk(candidate(text("Hel"))))
    acc.add({"error": _ERROR})
    acc.add(chunk(candidate(text("lo"), finishReason="STOP"), usageMetadata=USAGE))
    _expect_error(check, acc, _ERROR)
    expect_finished(check, acc, expected=False, rule="GM-LIFE-ERROR")
    _expect_read(check, acc, response(candidate(text("Hel"))), rules=("GM-LIFE-ERROR",))


@rule("GM-LIFE-ERROR")
def test_an_error_that_is_not_an_object_reads_as_an_empty_object(check: Check) -> None:
    acc = check.accumulator()
    acc.add(chunk(candidate(text("Hel"))))
    acc.add({"error": "overloaded"})
    _expect_error(check, acc, {})


@rule("GM-LIFE-TRUNCATED")
def test_a_stream_cut_before_the_finish_is_unfinished_and_partial(check: Check) -> None:
    acc = check.accumulator()
    add_all(acc, text_stream("Hel", "lo", "!")[:2])
    expect_finished(check, acc, expected=False, rule="GM-LIFE-TRUNCATED")
    _expect_read(check, acc, response(candidate(text("Hello"))))


@rule("GM-LIFE-AFTER-FINISH")
def test_a_usage_only_chunk_after_the_finish_chunk_is_folded(check: Check) -> None:
    # laravel/ai PR #912 (R7): the final usage follows the finish chunk
    acc = check.accumulator()
    add_all(acc, [chunk(candidate(text("Hello"))), chunk(candidate(finishReason="STOP"))])
    expect_finished(check, acc, expected=True)
    acc.add(chunk(usageMetadata=USAGE))
    expect_finished(check, acc, expected=True, rule="GM-LIFE-AFTER-FINISH")
    _expect_read(check, acc, answer("Hello", usageMetadata=USAGE), rules=("GM-LIFE-AFTER-FINISH",))
