"""Boundaries of the reference's JSON readings that the suites' examples did not pin
down, found by `refold mutate` (each test kills a surviving mutant)."""

from __future__ import annotations

from refold.reference.chat import fold


def test_created_one_is_the_smallest_positive_integer_and_is_kept() -> None:
    # ENV-CREATED: the first positive integer `created`; 1 is positive, 0 is not.
    chunks = [
        {"id": "c", "created": 0, "choices": []},
        {"created": 1, "choices": []},
        {"created": 2, "choices": []},
    ]
    assert fold(chunks)["created"] == 1
