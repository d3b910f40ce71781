"""Errors of the reference fold: what was received, what was expected, where."""

import pytest

from refold.reference import ChunkTypeError, EmptyFoldError, RefoldError
from refold.reference.chat import Accumulator, fold


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ([], "array"),
        ("data: {}", "string"),
        (3, "number"),
        (1.5, "number"),
        (None, "null"),
        (True, "boolean"),
        ((1, 2), "array"),
        ({1, 2}, "non-JSON value of Python type set"),
    ],
)
def test_a_chunk_that_is_not_an_object_is_refused_naming_its_type(value: object, kind: str) -> None:
    accumulator = Accumulator()
    accumulator.add({"choices": [{"index": 0, "delta": {"content": "a"}}]})
    before = accumulator.response()
    with pytest.raises(ChunkTypeError) as caught:
        accumulator.add(value)
    assert f"chunk 1 is a JSON {kind}" in str(caught.value)
    assert "ROB-NOT-OBJECT" in str(caught.value) and "expected a JSON object" in str(caught.value)
    assert caught.value.chunk_number == 1 and caught.value.received_type == kind
    assert accumulator.response() == before


def test_a_long_refused_value_is_previewed_not_dumped() -> None:
    with pytest.raises(ChunkTypeError) as caught:
        fold(["x" * 1000])
    assert "..." in str(caught.value) and len(str(caught.value)) < 300


def test_reading_before_any_chunk_raises_a_documented_error() -> None:
    accumulator = Accumulator()
    with pytest.raises(EmptyFoldError, match="LIFE-EMPTY"):
        accumulator.response()
    with pytest.raises(ChunkTypeError):
        accumulator.add([])
    with pytest.raises(EmptyFoldError):
        accumulator.response()


def test_every_refold_error_is_a_refold_error_and_a_builtin_kind() -> None:
    assert issubclass(ChunkTypeError, RefoldError) and issubclass(ChunkTypeError, TypeError)
    assert issubclass(EmptyFoldError, RefoldError) and issubclass(EmptyFoldError, LookupError)


def test_folding_an_empty_list_raises_the_empty_fold_error() -> None:
    with pytest.raises(EmptyFoldError):
        fold([])


def test_the_refusal_message_is_exact() -> None:
    with pytest.raises(ChunkTypeError) as caught:
        fold([[1, 2]])
    assert str(caught.value) == (
        "ROB-NOT-OBJECT: chunk 0 is a JSON array, expected a JSON object (a dict decoded "
        "from one SSE data: line); received [1, 2]"
    )


def test_a_preview_keeps_77_characters_and_an_ellipsis() -> None:
    value = "x" * 1000
    with pytest.raises(ChunkTypeError) as caught:
        fold([value])
    assert str(caught.value).endswith("received " + repr(value)[:77] + "...")
    exactly_80 = "y" * 78  # its repr is 80 characters: shown whole
    with pytest.raises(ChunkTypeError) as caught:
        fold([exactly_80])
    assert str(caught.value).endswith("received " + repr(exactly_80))


def test_the_empty_fold_message_is_exact() -> None:
    assert str(EmptyFoldError()) == (
        "LIFE-EMPTY: no chunk has been folded yet, so there is no response to read; "
        "call add(chunk) first"
    )


def test_chunk_numbers_count_every_add_call_refused_ones_included() -> None:
    accumulator = Accumulator()
    accumulator.add({"choices": []})
    for number in (1, 2):
        with pytest.raises(ChunkTypeError) as caught:
            accumulator.add([number])
        assert caught.value.chunk_number == number
    accumulator.add({"choices": []})
    with pytest.raises(ChunkTypeError, match="chunk 4 is a JSON null"):
        accumulator.add(None)
