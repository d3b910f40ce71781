"""The canonical comparison (spec, Input and output) and how differences read."""

from refold.reference import ABSENT, Difference, pointer
from refold.reference.chat import canonical, differences, equivalent


def test_null_keys_and_absent_equivalent_empty_lists_are_removed_recursively() -> None:
    value = {
        "a": None,
        "m": {
            "tool_calls": [],
            "annotations": [],
            "reasoning_details": [],
            "content": None,
            "other": [],
            "l": [None, {"x": None}],
        },
    }
    assert canonical(value) == {"m": {"other": [], "l": [None, {}]}}


def test_numbers_compare_as_json_numbers_and_booleans_are_not_numbers() -> None:
    assert equivalent({"a": 1}, {"a": 1.0})
    assert not equivalent({"a": 1}, {"a": True})
    assert not equivalent({"a": False}, {"a": 0})
    assert equivalent({"a": True}, {"a": True})


def test_key_order_is_ignored_and_list_order_is_significant() -> None:
    assert equivalent({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not equivalent({"a": [1, 2]}, {"a": [2, 1]})


def test_differences_are_reported_at_json_pointers_expected_first() -> None:
    found = differences({"a": {"b": [1, 2]}, "c": "x"}, {"a": {"b": [1]}, "c": "y", "d": 0})
    assert found == [
        Difference("/a/b/1", 2, ABSENT),
        Difference("/c", "x", "y"),
        Difference("/d", ABSENT, 0),
    ]


def test_a_type_mismatch_is_one_difference_at_that_pointer() -> None:
    assert differences({"a": [1]}, {"a": {"0": 1}}) == [Difference("/a", [1], {"0": 1})]


def test_a_whole_response_of_another_type_differs_at_the_root() -> None:
    (only,) = differences({"a": 1}, [1])
    assert only.pointer == ""
    assert str(only) == 'at (the whole response): expected {"a": 1}, received [1]'


def test_pointer_tokens_escape_tilde_and_slash() -> None:
    assert pointer(["a/b", "c~d", 0]) == "/a~1b/c~0d/0"


def test_a_difference_reads_expected_then_received_with_absent_spelled_out() -> None:
    text = str(Difference("/choices/0/message/content", "héllo", ABSENT))
    assert text == 'at /choices/0/message/content: expected "héllo", received (absent)'
    assert repr(ABSENT) == "(absent)"


def test_long_values_are_shortened_in_messages() -> None:
    text = str(Difference("/x", "y" * 500, 1))
    assert "..." in text and len(text) < 300


def test_a_value_of_exactly_the_limit_is_shown_whole_and_a_longer_one_cut_to_it() -> None:
    at_limit = "y" * 198  # 200 characters once quoted
    assert str(Difference("/x", at_limit, 1)) == f'at /x: expected "{at_limit}", received 1'
    longer = "y" * 199
    assert str(Difference("/x", longer, 1)) == f'at /x: expected "{"y" * 196}..., received 1'


def test_objects_are_shown_with_sorted_keys_and_unescaped_text() -> None:
    text = str(Difference("/m", {"b": "é", "a": [1, None]}, ABSENT))
    assert text == 'at /m: expected {"a": [1, null], "b": "é"}, received (absent)'


def test_a_key_missing_from_the_received_response_reads_absent_not_null() -> None:
    (only,) = differences({"a": 1}, {})
    assert only == Difference("/a", 1, ABSENT)
    assert str(only) == "at /a: expected 1, received (absent)"


def test_a_received_list_longer_than_expected_differs_at_each_extra_position() -> None:
    assert differences({"a": [1]}, {"a": [1, 2, 3]}) == [
        Difference("/a/1", ABSENT, 2),
        Difference("/a/2", ABSENT, 3),
    ]
