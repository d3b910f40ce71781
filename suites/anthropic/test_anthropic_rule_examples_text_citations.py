"""Rule examples: text blocks and their citations (AM-TEXT-JOIN, AM-CITATIONS-APPEND)."""

from __future__ import annotations

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    block_start,
    block_stop,
    citation_delta,
    message,
    message_delta,
    message_start,
    stop,
    text,
    text_delta,
    text_start,
)
from ._expect import expect_fold


def _one_block(*events: JSONObject) -> list[JSONObject]:
    """`events` of block 0, stopped, between message_start and an end_turn stop."""
    return [message_start(), *events, block_stop(0), message_delta("end_turn", None), stop()]


def _citation(cited_text: str, start: int, end: int) -> JSONObject:
    """A `char_location` citation as the citations docs show it."""
    return {
        "type": "char_location",
        "cited_text": cited_text,
        "document_index": 0,
        "document_title": "Example Document",
        "start_char_index": start,
        "end_char_index": end,
    }


@rule("AM-TEXT-JOIN")
def test_text_on_content_block_start_is_kept_before_the_deltas(check: Check) -> None:
    # AQ24: the Vercel AI SDK drops the opening text (" is 42.")
    events = _one_block(text_start(0, "The answer"), text_delta(0, " is 42."))
    expect_fold(check, events, message(text("The answer is 42."), stop_reason="end_turn"))


@rule("AM-TEXT-JOIN")
def test_a_text_block_with_no_deltas_is_its_start_text(check: Check) -> None:
    events = _one_block(text_start(0, "Whole answer."))
    expect_fold(check, events, message(text("Whole answer."), stop_reason="end_turn"))


@rule("AM-TEXT-JOIN")
def test_a_text_start_without_text_starts_from_empty(check: Check) -> None:
    # AQ24, BerriAI/litellm#28067: a KeyError on the missing `text` aborted the stream
    events = _one_block(block_start(0, {"type": "text"}), text_delta(0, "Hi"), text_delta(0, "!"))
    expect_fold(check, events, message(text("Hi!"), stop_reason="end_turn"))


@rule("AM-TEXT-JOIN")
def test_a_null_start_text_starts_from_empty(check: Check) -> None:
    events = _one_block(text_start(0, None), text_delta(0, "Hi"))
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-TEXT-JOIN")
def test_a_text_block_with_no_text_at_all_is_empty_text(check: Check) -> None:
    events = _one_block(block_start(0, {"type": "text"}))
    expect_fold(check, events, message(text(""), stop_reason="end_turn"))


@rule("AM-TEXT-JOIN")
def test_text_is_joined_verbatim_without_trimming(check: Check) -> None:
    parts = [" ", "  Hello,\n", "", "\tworld  ", "\r\n", " "]
    events = _one_block(text_start(0, "\n"), *(text_delta(0, p) for p in parts))
    expect_fold(check, events, message(text("\n" + "".join(parts)), stop_reason="end_turn"))


@rule("AM-TEXT-JOIN")
def test_text_is_joined_without_unicode_normalisation(check: Check) -> None:
    # "e" then a combining acute accent stays two code points; emoji pass through whole
    parts = ["caf", "e", "\u0301", " \U0001f600", "\u00a0\u2028", "\u200b"]
    events = _one_block(text_start(0), *(text_delta(0, p) for p in parts))
    expect_fold(check, events, message(text("".join(parts)), stop_reason="end_turn"))


@rule("AM-TEXT-JOIN")
def test_text_that_looks_like_whitespace_or_json_is_kept_as_text(check: Check) -> None:
    # text is never blank-tested: a whitespace-only block is real text
    events = _one_block(text_start(0, "   "), text_delta(0, "null"), text_delta(0, "{}"))
    expect_fold(check, events, message(text("   null{}"), stop_reason="end_turn"))


@rule("AM-CITATIONS-APPEND")
def test_each_citations_delta_appends_one_citation_in_arrival_order(check: Check) -> None:
    # the citations docs: a citations_delta, then the cited text
    first = _citation("The grass is green.", 0, 20)
    second = _citation("The sky is blue.", 20, 36)
    events = _one_block(
        text_start(0),
        citation_delta(0, first),
        text_delta(0, "the grass is green"),
        citation_delta(0, second),
        text_delta(0, " and the sky is blue"),
    )
    expected = text("the grass is green and the sky is blue", citations=[first, second])
    expect_fold(check, events, message(expected, stop_reason="end_turn"))


@rule("AM-CITATIONS-APPEND")
def test_citations_the_start_event_carried_come_before_the_streamed_ones(check: Check) -> None:
    first = _citation("The grass is green.", 0, 20)
    second = _citation("The sky is blue.", 20, 36)
    events = _one_block(
        text_start(0, "", citations=[first]),
        text_delta(0, "green, blue"),
        citation_delta(0, second),
    )
    expected = text("green, blue", citations=[first, second])
    expect_fold(check, events, message(expected, stop_reason="end_turn"))


@rule("AM-CITATIONS-APPEND")
def test_where_a_citation_arrives_among_the_text_deltas_does_not_matter(check: Check) -> None:
    first = _citation("The grass is green.", 0, 20)
    second = _citation("The sky is blue.", 20, 36)
    before = _one_block(
        text_start(0),
        citation_delta(0, first),
        citation_delta(0, second),
        text_delta(0, "green"),
        text_delta(0, " and blue"),
    )
    after = _one_block(
        text_start(0),
        text_delta(0, "green"),
        text_delta(0, " and blue"),
        citation_delta(0, first),
        citation_delta(0, second),
    )
    expected = message(text("green and blue", citations=[first, second]), stop_reason="end_turn")
    for events in (before, after):
        expect_fold(check, events, expected)


@rule("AM-CITATIONS-APPEND")
def test_citations_go_to_the_block_their_delta_names(check: Check) -> None:
    first = _citation("The grass is green.", 0, 20)
    second = _citation("The sky is blue.", 20, 36)
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "Intro. "),
        block_stop(0),
        text_start(1),
        citation_delta(1, first),
        text_delta(1, "green"),
        block_stop(1),
        text_start(2),
        citation_delta(2, second),
        text_delta(2, "blue"),
        block_stop(2),
        message_delta("end_turn", None),
        stop(),
    ]
    expected = message(
        text("Intro. "),
        text("green", citations=[first]),
        text("blue", citations=[second]),
        stop_reason="end_turn",
    )
    expect_fold(check, events, expected)


@rule("AM-CITATIONS-APPEND")
def test_an_identical_citation_sent_twice_is_appended_twice(check: Check) -> None:
    # appended, not merged into a set: each delta is "a single citation to be added"
    cited = _citation("The grass is green.", 0, 20)
    events = _one_block(
        text_start(0), citation_delta(0, cited), text_delta(0, "green"), citation_delta(0, cited)
    )
    expect_fold(
        check, events, message(text("green", citations=[cited, cited]), stop_reason="end_turn")
    )
