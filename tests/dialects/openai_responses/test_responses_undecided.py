"""A stream with no refusal gives RS-REFUSAL nothing to decide, and one with no reasoning
text gives RS-REASONING-TEXT nothing: a difference in a content part of such a stream is no
evidence against them (`refold.dialects.openai_responses.undecided`)."""

from __future__ import annotations

from typing import Any

import pytest

from refold.dialects import DIALECTS
from refold.dialects.openai_responses.undecided import undecided_at
from refold.reference import Difference
from refold.run.checks import ConformanceFailure

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_a_stream_without_refusal_or_reasoning_text_leaves_both_undecided": (
        "RS-REFUSAL",
        "RS-REASONING-TEXT",
    ),
    "test_a_stream_with_a_refusal_or_reasoning_text_decides_its_rule": (
        "RS-REFUSAL",
        "RS-REASONING-TEXT",
    ),
    "test_a_difference_in_a_plain_text_part_is_not_charged_to_refusal": (
        "RS-REFUSAL",
        "RS-REASONING-TEXT",
    ),
}


def _delta(kind: str, text: str) -> dict[str, Any]:
    return {
        "type": f"response.{kind}.delta",
        "item_id": "msg_1",
        "output_index": 0,
        "content_index": 0,
        "delta": text,
    }


TEXT_ONLY = [_delta("output_text", "x")]


@pytest.mark.parametrize(
    "pointer",
    [
        "/output/0/content",
        "/output/0/content/0",
        "/output/0/content/0/text",
        "/output/0/content/0/type",
    ],
)
def test_a_stream_without_refusal_or_reasoning_text_leaves_both_undecided(pointer: str) -> None:
    assert undecided_at(TEXT_ONLY, pointer) == {"RS-REFUSAL", "RS-REASONING-TEXT"}
    assert undecided_at(TEXT_ONLY, "/output/0/id") == frozenset()  # not a content place


def test_a_stream_with_a_refusal_or_reasoning_text_decides_its_rule() -> None:
    pointer = "/output/0/content/0/text"
    assert undecided_at([_delta("refusal", "no")], pointer) == {"RS-REASONING-TEXT"}
    assert undecided_at([_delta("reasoning_text", "r")], pointer) == {"RS-REFUSAL"}
    part = {"type": "response.content_part.added", "part": {"type": "refusal", "refusal": ""}}
    assert undecided_at([part], pointer) == {"RS-REASONING-TEXT"}
    # the word anywhere, in a text even, keeps the rule: never undecided by mistake
    assert undecided_at([_delta("output_text", "a refusal")], pointer) == {"RS-REASONING-TEXT"}


def test_a_difference_in_a_plain_text_part_is_not_charged_to_refusal() -> None:
    rules = ("RS-RECOVER-FROM-DELTAS", "RS-REFUSAL", "RS-REASONING-TEXT", "RS-CONTENT-INDEX")
    failure = ConformanceFailure(
        rules,
        "fold",
        chunks=TEXT_ONLY,
        differences=[Difference("/output/0/content/0/text", "x", "")],
    )
    assert failure.dialect is DIALECTS["openai-responses"]
    assert "RS-RECOVER-FROM-DELTAS" in failure.implicated
    assert not {"RS-REFUSAL", "RS-REASONING-TEXT"} & set(failure.implicated)
