"""Rule examples: log probabilities (LP-*)."""

from typing import Any

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import choice, completion, delta, entry, stream


def _token(text: str, logprob: float) -> dict[str, Any]:
    return {"token": text, "logprob": logprob, "bytes": list(text.encode()), "top_logprobs": []}


_HE, _LLO, _NO = _token("He", -0.1), _token("llo", -0.2), _token("No", -0.3)


@rule("LP-CONCAT", "LP-SHAPE")
def test_content_entries_of_every_chunk_are_concatenated(check: Check) -> None:
    chunks = stream(
        entry(
            index=0,
            delta={"role": "assistant", "content": "He"},
            logprobs={"content": [_HE], "refusal": None},
        ),
        entry(index=0, delta={"content": "llo"}, logprobs={"content": [_LLO], "refusal": None}),
        entry(index=0, delta={}, finish_reason="stop", logprobs=None),
    )
    expected = completion(
        choice(
            content="Hello",
            finish_reason="stop",
            logprobs={"content": [_HE, _LLO], "refusal": None},
        )
    )
    check.folds_to(chunks, expected)


@rule("LP-CONCAT", "TEXT-REFUSAL")
def test_refusal_entries_are_concatenated_apart_from_content(check: Check) -> None:
    chunks = stream(
        entry(index=0, delta={"refusal": "No"}, logprobs={"content": [], "refusal": [_NO]}),
        entry(index=0, delta={"content": "He"}, logprobs={"content": [_HE]}),
        entry(
            index=0, delta={"refusal": "llo"}, finish_reason="stop", logprobs={"refusal": [_LLO]}
        ),
    )
    expected = completion(
        choice(
            content="He",
            refusal="Nollo",
            finish_reason="stop",
            logprobs={"content": [_HE], "refusal": [_NO, _LLO]},
        )
    )
    check.folds_to(chunks, expected)


@rule("LP-SHAPE")
def test_logprobs_are_null_when_no_chunk_carried_an_object(check: Check) -> None:
    chunks = stream(
        entry(index=0, delta={"content": "a"}, logprobs=None),
        entry(index=0, delta={}, finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(content="a", finish_reason="stop", logprobs=None)))


@rule("LP-SHAPE")
def test_an_empty_logprobs_object_still_gives_a_content_list(check: Check) -> None:
    chunks = stream(entry(index=0, delta={"content": "a"}, finish_reason="stop", logprobs={}))
    expected = completion(
        choice(content="a", finish_reason="stop", logprobs={"content": [], "refusal": None})
    )
    check.folds_to(chunks, expected)


@rule("LP-SKIP")
def test_a_logprobs_value_that_is_not_an_object_is_skipped(check: Check) -> None:
    chunks = stream(
        entry(index=0, delta={"content": "He"}, logprobs={"content": [_HE]}),
        entry(index=0, delta={"content": "llo"}, logprobs="oops"),
        entry(index=0, delta={}, logprobs=[_LLO]),
        entry(index=0, delta={}, finish_reason="stop", logprobs=3),
    )
    expected = completion(
        choice(content="Hello", finish_reason="stop", logprobs={"content": [_HE], "refusal": None})
    )
    check.folds_to(chunks, expected)


@rule("LP-SKIP")
def test_a_content_or_refusal_that_is_not_a_list_is_skipped(check: Check) -> None:
    chunks = stream(
        entry(index=0, delta={"content": "He"}, logprobs={"content": "He", "refusal": {}}),
        entry(index=0, delta={"content": "llo"}, logprobs={"content": [_LLO], "refusal": 1}),
        entry(index=0, delta={}, finish_reason="stop", logprobs={"content": None}),
    )
    expected = completion(
        choice(content="Hello", finish_reason="stop", logprobs={"content": [_LLO], "refusal": None})
    )
    check.folds_to(chunks, expected)


@rule("LP-SKIP")
def test_only_non_object_logprobs_leave_logprobs_null(check: Check) -> None:
    chunks = stream(entry(index=0, delta={"content": "a"}, finish_reason="stop", logprobs="x"))
    check.folds_to(chunks, completion(choice(content="a", finish_reason="stop", logprobs=None)))


@rule("LP-CONCAT", "ROB-NULL-ENTRIES")
def test_null_logprob_entries_are_skipped(check: Check) -> None:
    chunks = stream(
        entry(index=0, delta={"content": "He"}, logprobs={"content": [None, _HE, "x"]}),
        entry(
            index=0,
            delta={"content": "llo"},
            finish_reason="stop",
            logprobs={"content": [_LLO, None], "refusal": [None]},
        ),
    )
    expected = completion(
        choice(
            content="Hello",
            finish_reason="stop",
            logprobs={"content": [_HE, _LLO], "refusal": None},
        )
    )
    check.folds_to(chunks, expected)


@rule("LP-CONCAT", "CHOICE-ORDER")
def test_logprobs_of_two_choices_never_mix(check: Check) -> None:
    chunks = stream(
        {
            "choices": [
                {"index": 1, "delta": {"content": "No"}, "logprobs": {"content": [_NO]}},
                {"index": 0, "delta": {"content": "He"}, "logprobs": {"content": [_HE]}},
            ]
        },
        delta(index=0, content="llo", finish_reason="stop"),
        delta(index=1, finish_reason="stop"),
    )
    expected = completion(
        choice(index=0, content="Hello", finish_reason="stop", logprobs={"content": [_HE]}),
        choice(index=1, content="No", finish_reason="stop", logprobs={"content": [_NO]}),
    )
    check.folds_to(chunks, expected)
