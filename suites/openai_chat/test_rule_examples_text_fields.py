"""Rule examples: text fields (TEXT-*)."""

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import choice, completion, delta, stream

_CITATION_A = {
    "type": "url_citation",
    "url_citation": {"url": "https://a.example", "start_index": 0, "end_index": 3},
}
_CITATION_B = {
    "type": "url_citation",
    "url_citation": {"url": "https://b.example", "start_index": 4, "end_index": 9},
}


@rule("TEXT-JOIN")
def test_content_is_every_fragment_joined_verbatim_in_arrival_order(check: Check) -> None:
    # no trimming, no Unicode normalisation: "e" + U+0301 stays two code points
    chunks = stream(
        delta(role="assistant", content=""),
        delta(content="  Caf"),
        delta(content="e"),
        delta(content="\u0301 \ufb01ne\n"),
        delta(content="\U0001f600 "),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(content="  Cafe\u0301 \ufb01ne\n\U0001f600 ", finish_reason="stop")
    )
    check.folds_to(chunks, expected)


@rule("TEXT-JOIN")
def test_content_is_null_when_the_concatenation_is_empty(check: Check) -> None:
    chunks = stream(delta(role="assistant", content=""), delta(content="", finish_reason="stop"))
    check.folds_to(chunks, completion(choice(content=None, finish_reason="stop")))


@rule("TEXT-JOIN", "ROB-WRONG-TYPE")
def test_content_that_is_not_a_string_is_not_joined(check: Check) -> None:
    chunks = stream(
        delta(content="a"),
        delta(content=None),
        delta(content=7),
        delta(content=["b"]),
        delta(content={"text": "c"}),
        delta(content="d", finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(content="ad", finish_reason="stop")))


@rule("TEXT-REFUSAL")
def test_refusal_fragments_are_joined_like_content(check: Check) -> None:
    chunks = stream(
        delta(role="assistant", content=None, refusal="I can"),
        delta(refusal="'t help"),
        delta(refusal=None),
        delta(refusal=" with that.", finish_reason="stop"),
    )
    expected = completion(choice(refusal="I can't help with that.", finish_reason="stop"))
    check.folds_to(chunks, expected)


@rule("TEXT-REFUSAL")
def test_refusal_is_null_when_the_concatenation_is_empty(check: Check) -> None:
    chunks = stream(delta(refusal="", content="ok"), delta(finish_reason="stop"))
    check.folds_to(chunks, completion(choice(content="ok", refusal=None, finish_reason="stop")))


@rule("TEXT-REASONING")
def test_reasoning_and_reasoning_content_are_joined_as_separate_fields(check: Check) -> None:
    chunks = stream(
        delta(role="assistant", reasoning="Let me "),
        delta(reasoning_content="Step 1. "),
        delta(reasoning="think"),
        delta(reasoning_content="Step 2."),
        delta(content="42", finish_reason="stop"),
    )
    expected = completion(
        choice(
            content="42",
            reasoning="Let me think",
            reasoning_content="Step 1. Step 2.",
            finish_reason="stop",
        )
    )
    check.folds_to(chunks, expected)


@rule("TEXT-REASONING")
def test_reasoning_content_alone_never_fills_reasoning(check: Check) -> None:
    # reasoning_content_deepseek (Q17)
    chunks = stream(
        delta(role="assistant", content=None, reasoning_content="Think"),
        delta(reasoning_content="ing."),
        delta(content="Answer", reasoning_content=None),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            content="Answer", reasoning=None, reasoning_content="Thinking.", finish_reason="stop"
        )
    )
    check.folds_to(chunks, expected)


@rule("TEXT-ANNOTATIONS")
def test_annotations_from_every_chunk_are_concatenated_in_arrival_order(check: Check) -> None:
    # annotations_two_chunks (Q17)
    chunks = stream(
        delta(role="assistant", content="See a", annotations=[_CITATION_A]),
        delta(content=" and b", annotations=[_CITATION_B]),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(content="See a and b", annotations=[_CITATION_A, _CITATION_B], finish_reason="stop")
    )
    check.folds_to(chunks, expected)


@rule("TEXT-ANNOTATIONS", "ROB-NULL-ENTRIES")
def test_non_object_annotation_entries_are_skipped(check: Check) -> None:
    chunks = stream(
        delta(content="See", annotations=[None, "x", _CITATION_A, 3]),
        delta(annotations=None),
        delta(annotations=[None], finish_reason="stop"),
    )
    expected = completion(choice(content="See", annotations=[_CITATION_A], finish_reason="stop"))
    check.folds_to(chunks, expected)


@rule("TEXT-ANNOTATIONS")
def test_annotations_are_absent_when_none_arrived(check: Check) -> None:
    chunks = stream(delta(content="Plain"), delta(annotations=[], finish_reason="stop"))
    # an empty list and an absent key compare equal canonically; anything else differs
    check.folds_to(chunks, completion(choice(content="Plain", finish_reason="stop")))
