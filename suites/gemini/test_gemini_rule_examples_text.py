"""Rule examples: content and text (GM-ROLE, GM-TEXT-JOIN, GM-TEXT-EMPTY).

Parts are deltas: answer text streamed over many chunks becomes one part, as in the
unstreamed response of the same call (R4).
"""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._chunks import USAGE, answer, candidate, chunk, response, text, text_stream
from ._expect import expect_fold


@rule("GM-TEXT-JOIN")
def test_answer_text_streamed_over_chunks_is_one_part(check: Check) -> None:
    chunks = text_stream("The sky", " is blue", " because of Rayleigh scattering.")
    expected = answer("The sky is blue because of Rayleigh scattering.", usageMetadata=USAGE)
    expect_fold(check, chunks, expected)


@rule("GM-TEXT-JOIN")
def test_text_is_joined_verbatim_without_trimming_or_separators(check: Check) -> None:
    chunks = text_stream("  Line one\n", "\n", "line two  ", "é, 中文, 🙂")
    expected = answer("  Line one\n\nline two  é, 中文, 🙂", usageMetadata=USAGE)
    expect_fold(check, chunks, expected)


@rule("GM-TEXT-JOIN")
def test_text_parts_of_one_chunk_join_like_parts_of_successive_chunks(check: Check) -> None:
    chunks = [
        chunk(candidate(text("Hel"), text("lo"))),
        chunk(candidate(text(" there"), finishReason="STOP")),
    ]
    expect_fold(check, chunks, answer("Hello there"))


@rule("GM-TEXT-EMPTY")
def test_the_empty_text_part_of_the_finish_chunk_is_dropped(check: Check) -> None:
    # the finish chunk very often holds {"text": ""} (R4)
    chunks = [
        chunk(candidate(text("Hello"))),
        chunk(candidate(text(""), finishReason="STOP"), usageMetadata=USAGE),
    ]
    expect_fold(check, chunks, answer("Hello", usageMetadata=USAGE))


@rule("GM-TEXT-EMPTY")
def test_an_empty_text_part_between_pieces_changes_nothing(check: Check) -> None:
    chunks = [
        chunk(candidate(text("Hel"))),
        chunk(candidate(text(""))),
        chunk(candidate(text("lo"), finishReason="STOP")),
    ]
    expect_fold(check, chunks, answer("Hello"))


@rule("GM-ROLE")
def test_the_content_role_is_the_models(check: Check) -> None:
    expect_fold(check, text_stream("Hi", "!"), answer("Hi!", usageMetadata=USAGE))


@rule("GM-ROLE")
def test_a_content_without_role_is_the_models(check: Check) -> None:
    chunks = [chunk(candidate(text("Hi"), finishReason="STOP"))]
    del chunks[0]["candidates"][0]["content"]["role"]
    expect_fold(check, chunks, answer("Hi"))


@rule("GM-ROLE")
def test_a_candidate_that_never_carried_content_has_none(check: Check) -> None:
    chunks = [chunk(candidate(finishReason="SAFETY"))]
    expect_fold(check, chunks, response(candidate(finishReason="SAFETY")))
