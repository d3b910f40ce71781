"""Rule examples: what the fold skips, keeps and refuses (GM-ROB-NOT-OBJECT,
GM-ROB-WRONG-TYPE, GM-ROB-NULL-ENTRIES, GM-UNKNOWN-KEYS)."""

from __future__ import annotations

import pytest

from refold.reference import JSON
from refold.run.checks import Check
from refold.run.marks import rule

from .._expect import expect_refusals_change_nothing
from ._chunks import USAGE, answer, candidate, chunk, response, text, text_stream
from ._expect import expect_fold


@rule("GM-ROB-NOT-OBJECT")
@pytest.mark.parametrize("value", [None, "data", 3, 1.5, True, [], [{"candidates": []}]])
def test_a_chunk_that_is_not_a_json_object_is_refused(check: Check, value: JSON) -> None:
    check.refuses(value)


@rule("GM-ROB-NOT-OBJECT")
def test_a_refused_chunk_leaves_the_fold_unchanged(check: Check) -> None:
    expect_refusals_change_nothing(
        check, text_stream("Hel", "lo"), answer("Hello", usageMetadata=USAGE)
    )


@rule("GM-ROB-WRONG-TYPE")
def test_fields_of_the_wrong_type_are_treated_as_absent(check: Check) -> None:
    chunks = text_stream("Hel", "lo")
    chunks.insert(1, chunk(candidate(text("x")), candidates="none"))
    chunks.insert(1, {"usageMetadata": [1], "promptFeedback": "blocked", "modelVersion": 5})
    chunks.insert(1, chunk(candidate(finishReason=3, content="parts")))
    expect_fold(check, chunks, answer("Hello", usageMetadata=USAGE))


@rule("GM-ROB-WRONG-TYPE", "GM-CAND-INDEX")
def test_an_index_that_is_not_a_non_negative_integer_is_0(check: Check) -> None:
    for index in ("1", -1, 0.5, None, True):
        chunks = [
            chunk(candidate(text("Hel"), index=0)),
            {"candidates": [{"content": {"role": "model", "parts": [text("lo")]}, "index": index}]},
            chunk(candidate(index=0, finishReason="STOP")),
        ]
        expect_fold(check, chunks, answer("Hello"))


@rule("GM-ROB-NULL-ENTRIES")
def test_null_and_non_object_entries_are_skipped(check: Check) -> None:
    chunks = text_stream("Hel", "lo")
    chunks[0]["candidates"].insert(0, None)
    chunks[0]["candidates"][1]["content"]["parts"][:0] = [None, "x", 7]
    expect_fold(check, chunks, answer("Hello", usageMetadata=USAGE))


@rule("GM-UNKNOWN-KEYS")
def test_unknown_keys_are_kept_where_they_arrive(check: Check) -> None:
    chunks = text_stream("Hel", "lo", serviceTier="standard")
    chunks[0]["candidates"][0]["futureCandidateKey"] = "tok-1"
    chunks[0]["candidates"][0]["content"]["channel"] = "main"
    expected = response(
        candidate(text("Hello"), finishReason="STOP", futureCandidateKey="tok-1"),
        usageMetadata=USAGE,
        serviceTier="standard",
    )
    expected["candidates"][0]["content"]["channel"] = "main"
    expect_fold(check, chunks, expected)


@rule("GM-UNKNOWN-KEYS", "GM-PART-OTHER")
def test_a_part_with_an_unknown_key_is_kept_as_sent(check: Check) -> None:
    tagged = {"text": "tagged", "future": {"x": 1}}
    chunks = [chunk(candidate(tagged, finishReason="STOP"))]
    expect_fold(check, chunks, response(candidate(tagged, finishReason="STOP")))
