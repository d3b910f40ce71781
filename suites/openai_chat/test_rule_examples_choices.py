"""Rule examples: choices (CHOICE-*)."""

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import choice, completion, delta, entry, stream


@rule("CHOICE-KEY")
def test_a_choice_is_keyed_by_its_index_value_not_its_list_position(check: Check) -> None:
    chunks = stream(
        {"choices": [{"index": 2, "delta": {"role": "assistant", "content": "x"}}]},
        {"choices": [{"index": 2, "delta": {"content": "y"}, "finish_reason": "stop"}]},
    )
    check.folds_to(chunks, completion(choice(index=2, content="xy", finish_reason="stop")))


@rule("CHOICE-KEY", "ROB-WRONG-TYPE")
def test_an_entry_without_a_non_negative_integer_index_is_choice_zero(check: Check) -> None:
    chunks = stream(
        entry(delta={"content": "a"}),
        entry(index=None, delta={"content": "b"}),
        entry(index=-1, delta={"content": "c"}),
        entry(index="0", delta={"content": "d"}),
        entry(index=True, delta={"content": "e"}),
        entry(index=0, delta={}, finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(content="abcde", finish_reason="stop")))


@rule("CHOICE-KEY")
def test_an_integral_float_index_is_that_integer(check: Check) -> None:
    # JSON has one number type, so 0.0 may be read as the integer 0; read as no integer
    # index, it is choice 0 too: either reading folds both entries into choice 0 (the spec
    # does not say whether 1.0 names choice 1, so no example sends one)
    chunks = stream(
        entry(index=0, delta={"content": "a"}),
        entry(index=0.0, delta={"content": "b"}, finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(content="ab", finish_reason="stop")))


@rule("CHOICE-ORDER")
def test_choices_are_sorted_by_index_whatever_order_they_arrived_in(check: Check) -> None:
    # choice_index_1_first (Q16)
    chunks = stream(
        delta(index=1, role="assistant", content="B"),
        delta(index=0, role="assistant", content="A"),
        delta(index=1, content="b", finish_reason="stop"),
        delta(index=0, finish_reason="stop"),
    )
    expected = completion(
        choice(index=0, content="A", finish_reason="stop"),
        choice(index=1, content="Bb", finish_reason="stop"),
    )
    check.folds_to(chunks, expected)


@rule("CHOICE-ORDER")
def test_interleaved_fragments_of_two_choices_never_mix(check: Check) -> None:
    chunks = stream(
        {
            "choices": [
                {"index": 1, "delta": {"content": "B"}},
                {"index": 0, "delta": {"content": "A"}},
            ]
        },
        {
            "choices": [
                {"index": 0, "delta": {"content": "a"}, "finish_reason": "stop"},
                {"index": 1, "delta": {"content": "b"}, "finish_reason": "length"},
            ]
        },
    )
    expected = completion(
        choice(index=0, content="Aa", finish_reason="stop"),
        choice(index=1, content="Bb", finish_reason="length"),
    )
    check.folds_to(chunks, expected)


@rule("CHOICE-ROLE")
def test_a_role_repeated_on_every_chunk_is_never_concatenated(check: Check) -> None:
    chunks = stream(
        delta(role="assistant", content="He"),
        delta(role="assistant", content="y"),
        delta(role="assistant", finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(content="Hey", finish_reason="stop")))


@rule("CHOICE-ROLE")
def test_the_role_is_the_first_non_blank_role(check: Check) -> None:
    chunks = stream(
        delta(role="", content="a"),
        delta(role="tool", content="b"),
        delta(role="assistant", finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(role="tool", content="ab", finish_reason="stop")))


@rule("CHOICE-ROLE")
def test_the_role_is_assistant_when_none_arrived(check: Check) -> None:
    chunks = stream(delta(content="a"), delta(role=None, finish_reason="stop"))
    check.folds_to(chunks, completion(choice(role="assistant", content="a", finish_reason="stop")))


@rule("CHOICE-FINISH")
def test_a_later_blank_finish_reason_never_erases_stop(check: Check) -> None:
    # finish_then_empty_string (Q13)
    chunks = stream(
        delta(content="a", finish_reason="stop"),
        entry(index=0, delta={}, finish_reason=""),
        entry(index=0, delta={}, finish_reason=None),
        {"choices": [], "usage": None},
    )
    check.folds_to(chunks, completion(choice(content="a", finish_reason="stop")))


@rule("CHOICE-FINISH")
def test_the_finish_reason_is_the_last_non_blank_value(check: Check) -> None:
    chunks = stream(
        delta(content="a", finish_reason="length"),
        delta(finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(content="a", finish_reason="stop")))


@rule("CHOICE-FINISH")
def test_the_finish_reason_is_null_when_none_arrived(check: Check) -> None:
    # no_finish_reason_at_all (Q13)
    chunks = stream(delta(role="assistant", content="Hel"), delta(content="lo"))
    check.folds_to(chunks, completion(choice(content="Hello", finish_reason=None)))


@rule("CHOICE-DELTA-NULL")
def test_a_null_delta_still_counts_its_finish_reason(check: Check) -> None:
    # delta_null_on_finish (Q13)
    chunks = stream(
        delta(role="assistant", content="Hi"),
        entry(index=0, delta=None, finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(content="Hi", finish_reason="stop")))


@rule("CHOICE-DELTA-NULL", "ROB-WRONG-TYPE")
def test_an_absent_or_non_object_delta_folds_as_an_empty_delta(check: Check) -> None:
    chunks = stream(
        delta(content="Hi"),
        entry(index=0),
        entry(index=0, delta="!"),
        entry(index=0, delta=["!"]),
        entry(index=0, finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(content="Hi", finish_reason="stop")))
