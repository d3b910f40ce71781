"""Rule examples: candidate metadata and prompt feedback (GM-SAFETY, GM-CITATIONS,
GM-GROUNDING, GM-PROMPT-FEEDBACK)."""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._chunks import USAGE, answer, candidate, chunk, response, text, text_stream
from ._expect import expect_fold


def _rating(category: str, probability: str) -> dict[str, str]:
    return {"category": f"HARM_CATEGORY_{category}", "probability": probability}


@rule("GM-SAFETY")
def test_the_full_rating_list_on_every_chunk_keeps_each_categorys_latest(check: Check) -> None:
    # Gemini 1.x/2.0 sent the whole list on every chunk (R8)
    chunks = text_stream("Hel", "lo")
    chunks[0]["candidates"][0]["safetyRatings"] = [
        _rating("HATE_SPEECH", "NEGLIGIBLE"),
        _rating("HARASSMENT", "NEGLIGIBLE"),
    ]
    chunks[1]["candidates"][0]["safetyRatings"] = [
        _rating("HATE_SPEECH", "LOW"),
        _rating("HARASSMENT", "NEGLIGIBLE"),
    ]
    expected = answer("Hello", usageMetadata=USAGE)
    expected["candidates"][0]["safetyRatings"] = [
        _rating("HATE_SPEECH", "LOW"),
        _rating("HARASSMENT", "NEGLIGIBLE"),
    ]
    expect_fold(check, chunks, expected)


@rule("GM-SAFETY")
def test_a_category_first_rated_later_is_appended(check: Check) -> None:
    chunks = text_stream("Hel", "lo")
    chunks[0]["candidates"][0]["safetyRatings"] = [_rating("HARASSMENT", "NEGLIGIBLE")]
    chunks[1]["candidates"][0]["safetyRatings"] = [_rating("DANGEROUS_CONTENT", "MEDIUM")]
    expected = answer("Hello", usageMetadata=USAGE)
    expected["candidates"][0]["safetyRatings"] = [
        _rating("HARASSMENT", "NEGLIGIBLE"),
        _rating("DANGEROUS_CONTENT", "MEDIUM"),
    ]
    expect_fold(check, chunks, expected)


@rule("GM-CITATIONS")
def test_citations_resent_accumulated_are_not_repeated(check: Check) -> None:
    first = {"startIndex": 0, "endIndex": 12, "uri": "https://example.com/a"}
    second = {"startIndex": 20, "endIndex": 31, "uri": "https://example.com/b", "license": "mit"}
    chunks = text_stream("Cited text", " and more")
    chunks[0]["candidates"][0]["citationMetadata"] = {"citationSources": [first]}
    chunks[1]["candidates"][0]["citationMetadata"] = {"citationSources": [first, second]}
    expected = answer("Cited text and more", usageMetadata=USAGE)
    expected["candidates"][0]["citationMetadata"] = {"citationSources": [first, second]}
    expect_fold(check, chunks, expected)


@rule("GM-CITATIONS")
def test_citations_sent_new_only_are_all_kept_in_arrival_order(check: Check) -> None:
    first = {"startIndex": 0, "endIndex": 5, "uri": "https://example.com/a"}
    second = {"startIndex": 6, "endIndex": 9, "uri": "https://example.com/b"}
    chunks = text_stream("Cited", " too")
    chunks[0]["candidates"][0]["citationMetadata"] = {"citations": [first]}  # Vertex's name
    chunks[1]["candidates"][0]["citationMetadata"] = {"citations": [second]}
    expected = answer("Cited too", usageMetadata=USAGE)
    expected["candidates"][0]["citationMetadata"] = {"citations": [first, second]}
    expect_fold(check, chunks, expected)


@rule("GM-GROUNDING")
def test_grounding_metadata_on_the_final_chunk_is_kept(check: Check) -> None:
    grounding = {
        "webSearchQueries": ["weather Paris"],
        "groundingChunks": [{"web": {"uri": "https://example.com", "title": "Weather"}}],
    }
    chunks = text_stream("Sunny", " today")
    chunks[1]["candidates"][0]["groundingMetadata"] = grounding
    expected = answer("Sunny today", usageMetadata=USAGE)
    expected["candidates"][0]["groundingMetadata"] = grounding
    expect_fold(check, chunks, expected)


@rule("GM-GROUNDING")
def test_grounding_keys_sent_early_and_not_repeated_are_kept(check: Check) -> None:
    # gemini-3.1-flash-image-preview (R8): early keys, later ones on another chunk
    chunks = text_stream("An image", " of Paris")
    chunks[0]["candidates"][0]["groundingMetadata"] = {"webSearchQueries": ["Paris skyline"]}
    chunks[1]["candidates"][0]["groundingMetadata"] = {"searchEntryPoint": {"renderedContent": "x"}}
    expected = answer("An image of Paris", usageMetadata=USAGE)
    expected["candidates"][0]["groundingMetadata"] = {
        "webSearchQueries": ["Paris skyline"],
        "searchEntryPoint": {"renderedContent": "x"},
    }
    expect_fold(check, chunks, expected)


@rule("GM-GROUNDING")
def test_grounding_resent_on_a_later_chunk_is_kept_once(check: Check) -> None:
    # R8: gateways resend the accumulated value (langchainjs PR #11456, "Gemini resends
    # the accumulated metadata"); per key the last non-null value stands, never a sum
    grounding = {
        "webSearchQueries": ["weather Paris"],
        "searchEntryPoint": {"renderedContent": "<p>Weather</p>"},
    }
    chunks = text_stream("Sunny", " today")
    chunks[0]["candidates"][0]["groundingMetadata"] = grounding
    chunks[1]["candidates"][0]["groundingMetadata"] = grounding
    expected = answer("Sunny today", usageMetadata=USAGE)
    expected["candidates"][0]["groundingMetadata"] = grounding
    expect_fold(check, chunks, expected)


@rule("GM-PROMPT-FEEDBACK")
def test_prompt_feedback_sent_on_the_first_chunk_only_is_kept(check: Check) -> None:
    feedback = {"safetyRatings": [_rating("HARASSMENT", "NEGLIGIBLE")]}
    chunks = text_stream("Hel", "lo")
    chunks[0]["promptFeedback"] = feedback
    expect_fold(check, chunks, answer("Hello", usageMetadata=USAGE, promptFeedback=feedback))


@rule("GM-PROMPT-FEEDBACK", "GM-CAND-NONE")
def test_a_blocked_prompt_is_one_chunk_without_candidates(check: Check) -> None:
    # "Returns no candidates at all only if there was something wrong with the prompt"
    feedback = {"blockReason": "SAFETY", "safetyRatings": [_rating("HARASSMENT", "HIGH")]}
    usage = {"promptTokenCount": 8, "totalTokenCount": 8}
    chunks = [chunk(promptFeedback=feedback, usageMetadata=usage)]
    expect_fold(check, chunks, response(promptFeedback=feedback, usageMetadata=usage))


@rule("GM-SAFETY", "GM-FINISH")
def test_a_safety_finish_keeps_the_ratings_of_its_chunk(check: Check) -> None:
    ratings = [_rating("DANGEROUS_CONTENT", "HIGH")]
    chunks = [
        chunk(candidate(text("Step one"))),
        chunk(candidate(finishReason="SAFETY", safetyRatings=ratings)),
    ]
    expected = response(candidate(text("Step one"), finishReason="SAFETY", safetyRatings=ratings))
    expect_fold(check, chunks, expected)
