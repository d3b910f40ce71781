"""Rule examples: candidates (GM-CAND-INDEX, GM-CAND-ORDER, GM-CAND-NONE, GM-CAND-KEYS,
GM-FINISH)."""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._chunks import USAGE, answer, candidate, chunk, response, text, text_stream
from ._expect import expect_fold


@rule("GM-CAND-INDEX")
def test_vertex_candidates_without_index_and_gemini_api_ones_with_index_0_fold_alike(
    check: Check,
) -> None:
    vertex = text_stream("Hel", "lo")  # proto3 omits the 0 (R3)
    gemini_api = text_stream("Hel", "lo")
    for one in gemini_api:
        one["candidates"][0]["index"] = 0
    expected = answer("Hello", usageMetadata=USAGE)
    expect_fold(check, vertex, expected)
    expect_fold(check, gemini_api, expected)


@rule("GM-CAND-ORDER", "GM-CAND-INDEX")
def test_two_candidates_interleaved_keep_their_own_parts_in_index_order(check: Check) -> None:
    chunks = [
        chunk(candidate(text("Red"), index=0), candidate(text("Blue"), index=1)),
        chunk(candidate(text(" sky"), index=1, finishReason="STOP")),
        chunk(candidate(text(" rose"), index=0, finishReason="STOP"), usageMetadata=USAGE),
    ]
    expected = response(
        candidate(text("Red rose"), index=0, finishReason="STOP"),
        candidate(text("Blue sky"), index=1, finishReason="STOP"),
        usageMetadata=USAGE,
    )
    expect_fold(check, chunks, expected)


@rule("GM-CAND-ORDER")
def test_a_candidate_whose_first_chunk_comes_later_is_still_in_index_order(check: Check) -> None:
    chunks = [
        chunk(candidate(text("B"), index=1, finishReason="STOP")),
        chunk(candidate(text("A"), index=0, finishReason="STOP")),
    ]
    expected = response(
        candidate(text("A"), index=0, finishReason="STOP"),
        candidate(text("B"), index=1, finishReason="STOP"),
    )
    expect_fold(check, chunks, expected)


@rule("GM-CAND-NONE")
def test_a_stream_without_any_candidate_folds_to_a_response_without_candidates(
    check: Check,
) -> None:
    chunks = [chunk(), chunk(usageMetadata={"promptTokenCount": 8, "totalTokenCount": 8})]
    expected = response(usageMetadata={"promptTokenCount": 8, "totalTokenCount": 8})
    expect_fold(check, chunks, expected, rules=("GM-CAND-NONE",))


@rule("GM-CAND-KEYS")
def test_finish_message_and_avg_logprobs_on_the_last_chunk_are_kept(check: Check) -> None:
    chunks = text_stream("Hi")
    chunks[0]["candidates"][0].update(
        {"finishMessage": "Model generated function call(s).", "avgLogprobs": -0.25}
    )
    expected = answer("Hi", usageMetadata=USAGE)
    expected["candidates"][0].update(
        {"finishMessage": "Model generated function call(s).", "avgLogprobs": -0.25}
    )
    expect_fold(check, chunks, expected)


@rule("GM-CAND-KEYS")
def test_url_context_metadata_sent_on_the_first_chunk_only_is_kept(check: Check) -> None:
    metadata = {
        "urlMetadata": [
            {
                "retrievedUrl": "https://example.com",
                "urlRetrievalStatus": "URL_RETRIEVAL_STATUS_SUCCESS",
            }
        ]
    }
    chunks = text_stream("Read", " it")
    chunks[0]["candidates"][0]["urlContextMetadata"] = metadata  # R8: not repeated
    expected = answer("Read it", usageMetadata=USAGE)
    expected["candidates"][0]["urlContextMetadata"] = metadata
    expect_fold(check, chunks, expected)


@rule("GM-FINISH")
def test_the_finish_reason_on_the_last_chunk_is_the_candidates(check: Check) -> None:
    expect_fold(check, text_stream("Hel", "lo"), answer("Hello", usageMetadata=USAGE))


@rule("GM-FINISH")
def test_finish_reasons_are_kept_verbatim_never_mapped(check: Check) -> None:
    for reason in ("MAX_TOKENS", "SAFETY", "MALFORMED_FUNCTION_CALL", "IMAGE_SAFETY"):
        chunks = text_stream("Hel", "lo", finish=reason)
        expect_fold(check, chunks, answer("Hello", finish=reason, usageMetadata=USAGE))


@rule("GM-FINISH")
def test_a_finish_reason_sent_again_is_the_same_reason_not_two(check: Check) -> None:
    # the last non-blank value sent: a trailing chunk repeating it leaves it as it was
    chunks = [
        chunk(candidate(text("Hi"), finishReason="STOP")),
        chunk(candidate(finishReason="STOP"), usageMetadata=USAGE),
    ]
    expected = response(candidate(text("Hi"), finishReason="STOP"), usageMetadata=USAGE)
    expect_fold(check, chunks, expected)


@rule("GM-FINISH")
def test_a_finish_chunk_without_content_sets_the_reason(check: Check) -> None:
    # a SAFETY finish chunk may carry no content (R2)
    chunks = [chunk(candidate(text("I can"))), chunk(candidate(finishReason="SAFETY"))]
    expected = response(candidate(text("I can"), finishReason="SAFETY"))
    expect_fold(check, chunks, expected)
