"""How the reference reads JSON values: blank, integers, JSON equality, copies."""

import pytest

from refold.reference import json_equal
from refold.reference._json import (
    UNICODE_WHITESPACE,
    copy_json,
    non_blank,
    non_negative_int,
    positive_int,
)


@pytest.mark.parametrize("value", [None, "", " ", "\t\n", "\u3000\u2028", 0, 1.5, True, [], {}])
def test_blank_values_read_as_absent(value: object) -> None:
    assert non_blank(value) is None


@pytest.mark.parametrize("value", ["stop", " a ", "\x1c", "\ufeff", "\u200b"])
def test_a_string_with_a_non_white_space_code_point_is_not_blank(value: str) -> None:
    assert non_blank(value) == value


def test_whitespace_is_exactly_unicode_white_space() -> None:
    assert len(set(UNICODE_WHITESPACE)) == 25


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, 0),
        (3, 3),
        (2.0, 2),
        (-1, None),
        (1.5, None),
        (True, None),
        (False, None),
        ("1", None),
        (None, None),
        (float("inf"), None),
        (float("nan"), None),
    ],
)
def test_non_negative_integers_follow_json_not_python(value: object, expected: object) -> None:
    assert non_negative_int(value) == expected


def test_positive_integers_exclude_zero() -> None:
    assert positive_int(0) is None
    assert positive_int(1700000000.0) == 1700000000


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (1, 1.0, True),
        (True, 1, False),
        (1, True, False),
        (False, False, True),
        ({"a": [1, {"b": None}]}, {"a": [1.0, {"b": None}]}, True),
        ({"a": 1}, {"b": 1}, False),
        ([1, 2], [1, 2, 3], False),
        ("1", 1, False),
        (None, None, True),
        ([], {}, False),
    ],
)
def test_json_equality(a: object, b: object, equal: bool) -> None:
    assert json_equal(a, b) is equal


def test_copies_share_no_container_with_the_original() -> None:
    original = {"a": [{"b": [1]}], "c": "x"}
    copy = copy_json(original)
    copy["a"][0]["b"].append(2)
    assert original == {"a": [{"b": [1]}], "c": "x"}


def test_a_double_compares_as_a_double_whatever_its_spelling() -> None:
    assert json_equal(6.903453683793277e16, 69034536837932770)
    assert json_equal(69034536837932770, 6.903453683793277e16)
    assert not json_equal(2**53 + 1, 2**53)  # two integers: exact
    assert not json_equal(10**400, float("inf"))
    assert not json_equal(0.1, 0.2)
