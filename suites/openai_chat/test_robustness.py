"""Robustness (feature `robustness`): whatever a JSON object holds, the fold goes on; what
is not a JSON object is refused and changes nothing.

The wrong-type and null-entry properties compare the target with itself (the chunks as
drawn against the same chunks with the offending values removed), so a fault in some other
rule never fails them: they fail only when the type of a value, not its content, matters.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from .._json_values import (
    chunks_with_wrong_types,
    insert_junk_entries,
    json_objects,
    non_objects,
)

_ENVELOPE: JSONObject = {
    "id": "chatcmpl-x",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "m",
}


@rule("ROB-WRONG-TYPE")
@given(
    chunks=st.lists(
        json_objects() | chunks_with_wrong_types().map(lambda pair: pair[0]), min_size=1, max_size=3
    )
)
def test_any_json_object_as_a_chunk_never_makes_the_fold_raise(
    check: Check, chunks: list[JSONObject]
) -> None:
    check.fold(chunks)


@rule("ROB-WRONG-TYPE")
@given(pairs=st.lists(chunks_with_wrong_types(), min_size=1, max_size=3))
def test_a_field_of_the_wrong_type_folds_as_if_absent(
    check: Check, pairs: list[tuple[JSONObject, JSONObject]]
) -> None:
    chunks = [chunk for chunk, _ in pairs]
    without = [cleaned for _, cleaned in pairs]
    _folds_alike(check, chunks, without, "the same chunks without their wrong-typed fields")


@rule("ROB-NULL-ENTRIES")
@given(data=st.data(), pairs=st.lists(chunks_with_wrong_types(), min_size=1, max_size=3))
def test_null_and_non_object_list_entries_are_skipped(
    check: Check, data: st.DataObject, pairs: list[tuple[JSONObject, JSONObject]]
) -> None:
    clean = [cleaned for _, cleaned in pairs]
    chunks = [insert_junk_entries(data.draw, chunk) for chunk in clean]
    _folds_alike(check, chunks, clean, "the same chunks without their non-object entries")


def _folds_alike(check: Check, chunks: list[JSON], baseline: list[JSON], what: str) -> None:
    """Fail unless `chunks` fold as `baseline` does, both through the target."""
    __tracebackhide__ = True
    expected, received = check.fold(baseline), check.fold(chunks)
    found = check.projected_differences(expected, received)
    if found:
        raise check.fail(
            f"the fold differs from the target's own fold of {what}",
            chunks=chunks,
            differences=found,
            expected=expected,
            received=received,
        )


@rule("ROB-NOT-OBJECT")
@given(value=non_objects())
def test_a_chunk_that_is_not_an_object_is_refused(check: Check, value: JSON) -> None:
    check.refuses(value)


@rule("ROB-NOT-OBJECT")
@given(pairs=st.lists(chunks_with_wrong_types(), max_size=3), value=non_objects(), data=st.data())
def test_refusing_a_chunk_leaves_the_fold_unchanged(
    check: Check, pairs: list[tuple[JSONObject, JSONObject]], value: JSON, data: st.DataObject
) -> None:
    if "lifecycle" not in check.target.features:
        pytest.skip(
            f"target {check.target.name} does not claim feature lifecycle, which "
            f"this test needs to read the fold before and after a refusal"
        )
    chunks = [{**_ENVELOPE, **chunk} for chunk, _ in pairs]
    position = data.draw(st.integers(0, len(chunks)), label="refused at")
    accumulator = check.accumulator()
    for chunk in chunks[:position]:
        accumulator.add(chunk)
    before = accumulator.response() if position else None
    if accumulator.add_raw(value) is None:
        raise check.fail(
            f"add() accepted a chunk that is a {type(value).__name__}",
            chunks=[*chunks[:position], value],
        )
    if position:
        _unchanged(check, before, accumulator.response(), [*chunks[:position], value])
    elif accumulator.response_error() is None:
        raise check.fail(
            "after refusing the only chunk, response() returned a response "
            "instead of the LIFE-EMPTY error",
            chunks=[value],
        )
    for chunk in chunks[position:]:
        accumulator.add(chunk)
    if chunks:
        _unchanged(
            check,
            check.fold(chunks),
            accumulator.response(),
            [*chunks[:position], value, *chunks[position:]],
        )


def _unchanged(check: Check, expected: JSON, received: JSON, chunks: list[JSON]) -> None:
    __tracebackhide__ = True
    found = check.projected_differences(expected, received)
    if found:
        raise check.fail(
            "refusing a chunk that is not an object changed the fold",
            chunks=chunks,
            differences=found,
            expected=expected,
            received=received,
        )
