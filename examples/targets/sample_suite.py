"""A small conformance suite for the harness's own tests (copied as test_sample.py).

Against examples/targets/broken_accumulator.py it fails ENV-ID (a property, and an
incremental test that fails without an expected response) and CHOICE-FINISH, and
passes TEXT-JOIN; against the reference everything passes.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from refold.run.checks import Check
from refold.run.marks import rule

_IDS = st.lists(st.sampled_from(["chatcmpl-a", "chatcmpl-b", "chatcmpl-c"]), min_size=1, max_size=4)


def _stream(ids: list[str]) -> list[dict[str, Any]]:
    return [{"id": i, "choices": [{"index": 0, "delta": {"content": "x"}}]} for i in ids]


@rule("ENV-ID")
@settings(max_examples=40, database=None)
@given(ids=_IDS)
def test_the_first_id_is_kept(check: Check, ids: list[str]) -> None:
    check.folds_like_reference(_stream(ids))


@rule("ENV-ID")
@settings(max_examples=40, database=None)
@given(ids=_IDS)
def test_the_id_read_incrementally_is_the_first(check: Check, ids: list[str]) -> None:
    accumulator = check.accumulator()
    for chunk in _stream(ids):
        accumulator.add(chunk)
    received = accumulator.response()["id"]
    if received != ids[0]:
        raise check.fail(
            f"the id read back is {received!r}, expected {ids[0]!r}", chunks=accumulator.chunks
        )


@rule("CHOICE-FINISH")
def test_a_later_empty_finish_reason_erases_nothing(check: Check) -> None:
    check.folds_like_reference(
        [
            {
                "id": "c",
                "choices": [{"index": 0, "delta": {"content": "a"}, "finish_reason": "stop"}],
            },
            {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": ""}]},
        ]
    )


@rule("TEXT-JOIN")
def test_text_is_joined(check: Check) -> None:
    check.folds_like_reference(
        [
            {"id": "c", "choices": [{"index": 0, "delta": {"content": "a "}}]},
            {"id": "c", "choices": [{"index": 0, "delta": {"content": " b"}}]},
        ]
    )
