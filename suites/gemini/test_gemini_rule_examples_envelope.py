"""Rule examples: the response's top-level keys (GM-ENV-SNAPSHOT, GM-ENV-ID,
GM-ENV-NO-ERROR).

Every chunk is a whole `GenerateContentResponse`: its top-level keys are snapshots, the
last value sent stands, and a chunk that omits a key or sends `null` erases nothing.
"""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._chunks import USAGE, answer, candidate, chunk, text, text_stream
from ._expect import expect_fold

_CREATED = "2026-03-18T10:00:00.123456Z"


@rule("GM-ENV-SNAPSHOT")
def test_vertex_create_time_repeated_on_every_chunk_is_kept(check: Check) -> None:
    chunks = text_stream("Hel", "lo", createTime=_CREATED)
    for one in chunks:
        one["createTime"] = _CREATED  # Vertex repeats it on every chunk (R3)
    expect_fold(check, chunks, answer("Hello", usageMetadata=USAGE, createTime=_CREATED))


@rule("GM-ENV-SNAPSHOT")
def test_a_key_sent_once_is_kept_when_later_chunks_omit_it_or_send_null(check: Check) -> None:
    status = {"modelStage": "STABLE", "retirementTime": "2027-01-01T00:00:00Z"}
    chunks = text_stream("Hi", "!")
    chunks[0]["modelStatus"] = status
    chunks[1]["modelStatus"] = None
    expect_fold(check, chunks, answer("Hi!", usageMetadata=USAGE, modelStatus=status))


@rule("GM-ENV-SNAPSHOT")
def test_a_key_sent_again_takes_its_last_value_whole(check: Check) -> None:
    chunks = text_stream("Hi", "!")
    chunks[0]["modelStatus"] = {"modelStage": "PREVIEW", "message": "early"}
    chunks[1]["modelStatus"] = {"modelStage": "STABLE"}
    expected = answer("Hi!", usageMetadata=USAGE, modelStatus={"modelStage": "STABLE"})
    expect_fold(check, chunks, expected)


@rule("GM-ENV-ID")
def test_model_version_and_response_id_are_the_ones_every_chunk_repeats(check: Check) -> None:
    chunks = text_stream("One", " two", " three")
    expect_fold(check, chunks, answer("One two three", usageMetadata=USAGE))


@rule("GM-ENV-ID")
def test_a_blank_model_version_or_response_id_never_erases_the_sent_one(check: Check) -> None:
    chunks = text_stream("Hel", "lo")
    chunks[1]["modelVersion"] = ""
    chunks[1]["responseId"] = None
    expect_fold(check, chunks, answer("Hello", usageMetadata=USAGE))


@rule("GM-ENV-NO-ERROR")
def test_an_error_chunk_mid_stream_is_not_copied_into_the_response(check: Check) -> None:
    # Vertex answers HTTP 200 and then {"error": {...}} mid-stream (R1)
    error = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    chunks = [chunk(candidate(text("Hel"))), error]
    expect_fold(check, chunks, chunk(candidate(text("Hel"))))
