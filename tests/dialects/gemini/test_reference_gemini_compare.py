"""The canonical comparison and the pointer-to-rule table of the Gemini dialect."""

from __future__ import annotations

import pytest

from refold.reference.gemini import (
    ABSENT,
    POINTERLESS,
    RULES,
    Difference,
    canonical,
    differences,
    rules_at,
)

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_proto3_defaults_and_nulls_are_absent": ("GM-CAND-INDEX", "GM-THOUGHT-APART"),
    "test_call_arguments_are_data_and_kept_whole": ("GM-CALL-WHOLE", "GM-CALL-PARTIAL-ARGS"),
    "test_differences_are_reported_at_pointers_expected_first": ("GM-TEXT-JOIN",),
    "test_every_pointer_of_the_response_names_its_rules": ("GM-ENV-SNAPSHOT", "GM-UNKNOWN-KEYS"),
}


def test_proto3_defaults_and_nulls_are_absent() -> None:
    vertex = {"candidates": [{"content": {"role": "model", "parts": [{"text": "a"}]}}]}
    gemini = {
        "candidates": [
            {
                "index": 0,
                "content": {"role": "model", "parts": [{"text": "a", "thought": False}]},
                "safetyRatings": [],
                "finishMessage": None,
            }
        ],
        "promptFeedback": None,
    }
    assert canonical(gemini) == vertex
    assert differences(vertex, gemini) == []
    assert differences(vertex, {"candidates": [{**vertex["candidates"][0], "index": 1}]}) == [
        Difference("/candidates/0/index", ABSENT, 1)
    ]
    assert canonical({"index": 0, "thought": False}) == {"index": 0, "thought": False}
    assert canonical(["x", None]) == ["x", None]


def test_call_arguments_are_data_and_kept_whole() -> None:
    def response(call: object) -> dict[str, object]:
        return {"candidates": [{"content": {"parts": [{"functionCall": call}]}}]}

    with_null = response({"name": "f", "args": {"x": None, "l": []}})
    assert canonical(with_null) == with_null
    assert differences(with_null, response({"name": "f", "args": {"x": 1}})) == [
        Difference("/candidates/0/content/parts/0/functionCall/args/x", None, 1),
        Difference("/candidates/0/content/parts/0/functionCall/args/l", [], ABSENT),
    ]
    assert differences(response({"name": "f"}), response({"name": "f", "args": {}})) == []
    assert differences(response({"name": "f"}), response({"name": "f", "args": None})) == []


def test_differences_are_reported_at_pointers_expected_first() -> None:
    expected = {"candidates": [{"content": {"parts": [{"text": "ab"}]}}], "modelVersion": "m"}
    received = {"candidates": [{"content": {"parts": [{"text": "a"}, {"text": "b"}]}}]}
    assert [str(d) for d in differences(expected, received)] == [
        'at /candidates/0/content/parts/0/text: expected "ab", received "a"',
        'at /candidates/0/content/parts/1: expected (absent), received {"text": "b"}',
        'at /modelVersion: expected "m", received (absent)',
    ]


@pytest.mark.parametrize(
    ("pointer", "rule"),
    [
        ("", None),
        ("/candidates", "GM-CAND-NONE"),
        ("/candidates/0", "GM-CAND-ORDER"),
        ("/candidates/1/index", "GM-CAND-INDEX"),
        ("/candidates/0/finishReason", "GM-FINISH"),
        ("/candidates/0/content", "GM-ROLE"),
        ("/candidates/0/content/role", "GM-ROLE"),
        ("/candidates/0/content/x", "GM-UNKNOWN-KEYS"),
        ("/candidates/0/content/parts", "GM-TEXT-JOIN"),
        ("/candidates/0/content/parts/3", "GM-CALL-STREAMED"),
        ("/candidates/0/content/parts/0/text", "GM-TEXT-EMPTY"),
        ("/candidates/0/content/parts/0/thought", "GM-THOUGHT-APART"),
        ("/candidates/0/content/parts/0/thoughtSignature", "GM-SIGNATURE"),
        ("/candidates/0/content/parts/0/functionCall", "GM-CALL-WHOLE"),
        ("/candidates/0/content/parts/0/functionCall/name", "GM-CALL-STREAMED"),
        ("/candidates/0/content/parts/0/functionCall/id", "GM-CALL-ID"),
        ("/candidates/0/content/parts/0/functionCall/args/a/0", "GM-CALL-PARTIAL-ARGS"),
        ("/candidates/0/content/parts/0/executableCode/code", "GM-CODE"),
        ("/candidates/0/content/parts/0/codeExecutionResult", "GM-CODE"),
        ("/candidates/0/content/parts/0/inlineData/data", "GM-INLINE"),
        ("/candidates/0/content/parts/0/fileData", "GM-INLINE"),
        ("/candidates/0/content/parts/0/toolCall", "GM-PART-OTHER"),
        ("/candidates/0/safetyRatings/2/probability", "GM-SAFETY"),
        ("/candidates/0/citationMetadata/citationSources/0", "GM-CITATIONS"),
        ("/candidates/0/groundingMetadata/groundingChunks", "GM-GROUNDING"),
        ("/candidates/0/tokenCount", "GM-CAND-KEYS"),
        ("/usageMetadata/totalTokenCount", "GM-USAGE-LAST"),
        ("/promptFeedback/blockReason", "GM-PROMPT-FEEDBACK"),
        ("/modelVersion", "GM-ENV-ID"),
        ("/responseId", "GM-ENV-ID"),
        ("/error/code", "GM-ENV-NO-ERROR"),
        ("/createTime", "GM-ENV-SNAPSHOT"),
    ],
)
def test_every_pointer_of_the_response_names_its_rules(pointer: str, rule: str | None) -> None:
    rules = rules_at(pointer)
    assert rule in rules if rule else rules == frozenset()
    assert rules <= RULES.keys() and not rules & POINTERLESS


def test_every_rule_owns_a_pointer_or_is_pointerless() -> None:
    pointers = [
        "/candidates", "/candidates/0", "/candidates/0/index", "/candidates/0/finishReason",
        "/candidates/0/content", "/candidates/0/content/parts/0", "/candidates/0/content/x",
        "/candidates/0/content/parts/0/functionCall/id",
        "/candidates/0/content/parts/0/functionCall/args", "/candidates/0/x",
        "/candidates/0/safetyRatings", "/candidates/0/citationMetadata",
        "/candidates/0/groundingMetadata", "/usageMetadata", "/promptFeedback",
        "/modelVersion", "/error", "/x",
    ]  # fmt: skip
    owned = set().union(*(rules_at(p) for p in pointers))
    assert owned | POINTERLESS == RULES.keys()
