"""The impact of a failure is read off its differences, in verdicts.md §3's precedence."""

from __future__ import annotations

import pytest

from refold.reference import ABSENT, Difference, impact_of, worst_impact, worst_shape


def test_a_raise_is_a_crash_whatever_was_compared() -> None:
    assert impact_of([Difference("/x", 1, 2)], crashed=True) == "crash"


@pytest.mark.parametrize(
    ("expected", "received"),
    [
        (None, ""),
        (ABSENT, ""),
        ("", ABSENT),
        ([], {}),
        ({}, None),
        (ABSENT, []),
    ],
)
def test_differences_only_between_empty_values_are_representation(
    expected: object, received: object
) -> None:
    assert impact_of([Difference("/p", expected, received)], crashed=False) == "representation"


@pytest.mark.parametrize(
    ("expected", "received"),
    [
        ("Hello", ABSENT),
        ("Hello", ""),
        ("Hello", None),
        ("Hello", "Hel"),
        ([1, 2], [1]),
        ({"a": 1}, ABSENT),
    ],
)
def test_something_absent_or_cut_in_the_received_value_is_loss(
    expected: object, received: object
) -> None:
    assert impact_of([Difference("/p", expected, received)], crashed=False) == "loss"


@pytest.mark.parametrize(
    ("expected", "received"),
    [
        ("call_1", "call_1call_1"),
        (10, 20),
        ("stop", "length"),
        ("Hello", "olleH"),
        (ABSENT, {"prompt_tokens": 1}),
    ],
)
def test_a_value_present_but_wrong_or_invented_is_corruption(
    expected: object, received: object
) -> None:
    assert impact_of([Difference("/p", expected, received)], crashed=False) == "corruption"


def test_the_worst_difference_decides() -> None:
    found = [Difference("/a", None, ""), Difference("/b", 1, 2), Difference("/c", "x", ABSENT)]
    assert impact_of(found, crashed=False) == "loss"
    assert impact_of(found[:2], crashed=False) == "corruption"
    assert impact_of([], crashed=False) is None


def test_shapes_and_impacts_order_worst_first() -> None:
    assert worst_shape(["documented", "synthetic", "observed"]) == "synthetic"
    assert worst_shape([]) == "documented"
    assert worst_impact(["representation", "crash"]) == "crash"
