"""Rule examples: parts kept whole (GM-CODE, GM-INLINE, GM-PART-OTHER)."""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._chunks import candidate, chunk, response, text
from ._expect import expect_fold

_CODE = {"executableCode": {"language": "PYTHON", "code": "print(sum(range(10)))\n"}}
_RESULT = {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "45\n"}}


@rule("GM-CODE", "GM-TEXT-JOIN")
def test_code_and_its_result_are_parts_of_their_own_between_text_runs(check: Check) -> None:
    chunks = [
        chunk(candidate(text("I'll compute "))),
        chunk(candidate(text("it."), _CODE)),
        chunk(candidate(_RESULT)),
        chunk(candidate(text("The sum is "), text("45."), finishReason="STOP")),
    ]
    expected = response(
        candidate(
            text("I'll compute it."), _CODE, _RESULT, text("The sum is 45."), finishReason="STOP"
        )
    )
    expect_fold(check, chunks, expected)


@rule("GM-INLINE")
def test_streamed_audio_pieces_stay_separate_parts(check: Check) -> None:
    first = {"inlineData": {"mimeType": "audio/pcm;rate=24000", "data": "AAECAw=="}}
    second = {"inlineData": {"mimeType": "audio/pcm;rate=24000", "data": "BAUGBw=="}}
    chunks = [chunk(candidate(first)), chunk(candidate(second, finishReason="STOP"))]
    expect_fold(check, chunks, response(candidate(first, second, finishReason="STOP")))


@rule("GM-INLINE", "GM-TEXT-JOIN")
def test_an_image_and_a_file_are_kept_whole_among_text(check: Check) -> None:
    image = {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}
    file = {"fileData": {"mimeType": "application/pdf", "fileUri": "gs://bucket/a.pdf"}}
    chunks = [
        chunk(candidate(text("Here is"), text(" the image:"), image)),
        chunk(candidate(file, finishReason="STOP")),
    ]
    expected = response(candidate(text("Here is the image:"), image, file, finishReason="STOP"))
    expect_fold(check, chunks, expected)


@rule("GM-PART-OTHER", "GM-TEXT-JOIN")
def test_a_text_part_with_part_metadata_is_kept_as_sent_and_joins_nothing(check: Check) -> None:
    described = {"text": "cited", "partMetadata": {"source": "doc-1"}}
    chunks = [
        chunk(candidate(text("Plain "), described)),
        chunk(candidate(text("after"), finishReason="STOP")),
    ]
    expected = response(candidate(text("Plain "), described, text("after"), finishReason="STOP"))
    expect_fold(check, chunks, expected)


@rule("GM-PART-OTHER")
def test_a_part_of_a_kind_no_page_names_is_kept_in_place(check: Check) -> None:
    tool = {"toolCall": {"toolType": "URL_CONTEXT", "args": {"url": "https://example.com"}}}
    chunks = [chunk(candidate(text("Fetching"), tool, text("Done"), finishReason="STOP"))]
    expected = response(candidate(text("Fetching"), tool, text("Done"), finishReason="STOP"))
    expect_fold(check, chunks, expected)


@rule("GM-PART-OTHER")
def test_a_part_of_only_null_values_carries_nothing(check: Check) -> None:
    chunks = [
        chunk(candidate(text("Hel"), {}, {"text": None})),
        chunk(candidate(text("lo"), finishReason="STOP")),
    ]
    expect_fold(check, chunks, response(candidate(text("Hello"), finishReason="STOP")))
