"""The response envelope, candidates, their metadata and usage in the Gemini fold.

Worked examples of the spec's Envelope, Candidates, Candidate metadata and Usage sections;
`RULES_CHECKED` names the rules each test checks.
"""

from __future__ import annotations

from typing import Any

from _gemini_streams import chunk

from refold.reference.gemini import fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_identity_is_the_last_non_blank_value": ("GM-ENV-ID",),
    "test_other_top_level_keys_take_their_last_non_null_value_whole": (
        "GM-ENV-SNAPSHOT",
        "GM-UNKNOWN-KEYS",
    ),
    "test_an_error_member_is_never_copied": ("GM-ENV-NO-ERROR", "GM-LIFE-ERROR"),
    "test_a_candidate_is_keyed_by_index_and_absent_index_is_zero": ("GM-CAND-INDEX",),
    "test_candidates_are_sorted_by_index_and_never_mix": ("GM-CAND-ORDER", "GM-CAND-INDEX"),
    "test_a_blocked_prompt_has_no_candidates_key": ("GM-CAND-NONE", "GM-PROMPT-FEEDBACK"),
    "test_other_candidate_keys_take_their_last_non_null_value": (
        "GM-CAND-KEYS",
        "GM-UNKNOWN-KEYS",
    ),
    "test_finish_reason_is_the_last_non_blank_value_verbatim": ("GM-FINISH",),
    "test_a_finish_chunk_without_content_keeps_the_answer": ("GM-FINISH", "GM-ROLE"),
    "test_role_is_the_first_non_blank_and_model_by_default": ("GM-ROLE", "GM-UNKNOWN-KEYS"),
    "test_content_exists_only_when_a_content_object_arrived": ("GM-ROLE", "GM-ROB-WRONG-TYPE"),
    "test_safety_ratings_merge_by_category_in_place": ("GM-SAFETY", "GM-ROB-NULL-ENTRIES"),
    "test_citations_are_the_union_of_every_chunk_without_repeats": (
        "GM-CITATIONS",
        "GM-ROB-NULL-ENTRIES",
    ),
    "test_grounding_metadata_merges_per_key_and_absence_erases_nothing": ("GM-GROUNDING",),
    "test_prompt_feedback_is_the_last_object_whole": ("GM-PROMPT-FEEDBACK",),
    "test_usage_is_the_last_object_whole_and_can_go_down": ("GM-USAGE-LAST",),
    "test_usage_is_never_erased_or_summed": ("GM-USAGE-LAST", "GM-ROB-WRONG-TYPE"),
    "test_usage_is_absent_when_none_arrived": ("GM-USAGE-LAST",),
}


def test_identity_is_the_last_non_blank_value() -> None:
    chunks = [
        {"modelVersion": "gemini-a", "responseId": "r1"},
        {"modelVersion": "gemini-b", "responseId": " "},
        {"modelVersion": None, "responseId": 7},
    ]
    assert fold(chunks) == {"modelVersion": "gemini-b", "responseId": "r1"}


def test_other_top_level_keys_take_their_last_non_null_value_whole() -> None:
    chunks = [
        {"createTime": "t1", "modelStatus": {"a": 1}, "future": [1]},
        {"createTime": "t2", "modelStatus": {"b": 2}, "future": None},
        {},
    ]
    assert fold(chunks) == {"createTime": "t2", "modelStatus": {"b": 2}, "future": [1]}


def test_an_error_member_is_never_copied() -> None:
    response = fold([{"modelVersion": "m"}, {"error": {"code": 500}, "modelVersion": "n"}])
    assert response == {"modelVersion": "m"}


def test_a_candidate_is_keyed_by_index_and_absent_index_is_zero() -> None:
    chunks = [
        chunk({"text": "a"}),  # Vertex: no index
        chunk({"text": "b"}, index=0),  # Gemini API: index 0
        {"candidates": [{"index": 1.0, "content": {"parts": [{"text": "x"}]}}]},
        {"candidates": [{"index": -1, "content": {"parts": [{"text": "c"}]}}]},
        {"candidates": [{"index": "1", "content": {"parts": [{"text": "d"}]}}]},
    ]
    candidates = fold(chunks)["candidates"]
    assert [c["index"] for c in candidates] == [0, 1]
    assert candidates[0]["content"]["parts"] == [{"text": "abcd"}]
    assert candidates[1]["content"]["parts"] == [{"text": "x"}]


def test_candidates_are_sorted_by_index_and_never_mix() -> None:
    def entry(index: int, text: str) -> dict[str, Any]:
        return {"index": index, "content": {"role": "model", "parts": [{"text": text}]}}

    chunks = [
        {"candidates": [entry(3, "c"), entry(0, "a")]},
        {"candidates": [entry(3, "C")]},
        {"candidates": [entry(0, "A"), entry(3, "!")]},
    ]
    candidates = fold(chunks)["candidates"]
    assert [(c["index"], c["content"]["parts"]) for c in candidates] == [
        (0, [{"text": "aA"}]),
        (3, [{"text": "cC!"}]),
    ]


def test_a_blocked_prompt_has_no_candidates_key() -> None:
    blocked = {
        "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
        "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8},
        "modelVersion": "gemini-3.7-flash",
        "responseId": "r",
    }
    assert fold([blocked]) == blocked
    assert "candidates" not in fold([{"candidates": []}, {"candidates": [None, 1]}])
    assert "candidates" not in fold([{"candidates": {"index": 0}}])


def test_other_candidate_keys_take_their_last_non_null_value() -> None:
    chunks = [
        {"candidates": [{"tokenCount": 3, "continuationToken": "c1", "avgLogprobs": -0.5}]},
        {"candidates": [{"tokenCount": 5, "continuationToken": None, "finishMessage": "m"}]},
    ]
    assert fold(chunks)["candidates"] == [
        {
            "tokenCount": 5,
            "continuationToken": "c1",
            "avgLogprobs": -0.5,
            "finishMessage": "m",
            "index": 0,
        }
    ]


def test_finish_reason_is_the_last_non_blank_value_verbatim() -> None:
    chunks = [
        chunk({"text": "a"}, finishReason="FUTURE_REASON"),
        chunk({"text": "b"}, finishReason="MALFORMED_FUNCTION_CALL"),
        chunk({"text": "c"}, finishReason=""),
        chunk({"text": "d"}, finishReason=None),
    ]
    assert fold(chunks)["candidates"][0]["finishReason"] == "MALFORMED_FUNCTION_CALL"
    assert "finishReason" not in fold([chunk({"text": "a"})])["candidates"][0]


def test_a_finish_chunk_without_content_keeps_the_answer() -> None:
    chunks = [chunk({"text": "partial"}), {"candidates": [{"finishReason": "SAFETY"}]}]
    assert fold(chunks)["candidates"] == [
        {
            "content": {"role": "model", "parts": [{"text": "partial"}]},
            "finishReason": "SAFETY",
            "index": 0,
        }
    ]


def test_role_is_the_first_non_blank_and_model_by_default() -> None:
    chunks = [
        {"candidates": [{"content": {"role": "", "parts": [{"text": "a"}], "x": 1}}]},
        {"candidates": [{"content": {"role": "assistant", "parts": [], "x": None}}]},
        {"candidates": [{"content": {"role": "model"}}]},
    ]
    assert fold(chunks)["candidates"][0]["content"] == {
        "x": 1,
        "role": "assistant",
        "parts": [{"text": "a"}],
    }
    no_role = [{"candidates": [{"content": {"parts": "not a list"}}]}]
    assert fold(no_role)["candidates"][0]["content"] == {"role": "model", "parts": []}


def test_content_exists_only_when_a_content_object_arrived() -> None:
    chunks = [{"candidates": [{"content": None, "finishReason": "SAFETY"}, {"content": "x"}]}]
    assert fold(chunks)["candidates"] == [{"finishReason": "SAFETY", "index": 0}]


def test_safety_ratings_merge_by_category_in_place() -> None:
    def rating(category: Any, probability: str) -> dict[str, Any]:
        return {"category": category, "probability": probability}

    chunks = [
        {"candidates": [{"safetyRatings": [rating("HARASSMENT", "LOW"), rating("HATE", "LOW")]}]},
        {"candidates": [{"safetyRatings": [rating("HATE", "HIGH"), None, rating("", "X")]}]},
        {"candidates": [{"safetyRatings": [rating("SEX", "LOW"), rating(None, "Y")]}]},
        {"candidates": [{"safetyRatings": "not a list"}]},
    ]
    assert fold(chunks)["candidates"][0]["safetyRatings"] == [
        rating("HARASSMENT", "LOW"),
        rating("HATE", "HIGH"),
        rating(None, "Y"),
        rating("SEX", "LOW"),
    ]


def test_citations_are_the_union_of_every_chunk_without_repeats() -> None:
    one = {"startIndex": 0, "endIndex": 5, "uri": "https://a"}
    two = {"startIndex": 6, "endIndex": 9, "uri": "https://b"}
    chunks = [
        {"candidates": [{"citationMetadata": {"citationSources": [one], "extra": 1}}]},
        {"candidates": [{"citationMetadata": {"citationSources": [one, two, None]}}]},
        {"candidates": [{"citationMetadata": {"citations": [two], "citationSources": "x"}}]},
        {"candidates": [{"citationMetadata": None}]},
    ]
    assert fold(chunks)["candidates"][0]["citationMetadata"] == {
        "extra": 1,
        "citationSources": [one, two],
        "citations": [two],
    }
    empty = [{"candidates": [{"citationMetadata": {}}]}]
    assert fold(empty)["candidates"][0]["citationMetadata"] == {}


def test_grounding_metadata_merges_per_key_and_absence_erases_nothing() -> None:
    chunks = [
        {
            "candidates": [
                {"groundingMetadata": {"webSearchQueries": ["q"], "groundingChunks": [1]}}
            ]
        },
        {
            "candidates": [
                {"groundingMetadata": {"groundingChunks": [1, 2], "searchEntryPoint": None}}
            ]
        },
        {"candidates": [{"finishReason": "STOP"}]},
    ]
    assert fold(chunks)["candidates"][0]["groundingMetadata"] == {
        "webSearchQueries": ["q"],
        "groundingChunks": [1, 2],
    }


def test_prompt_feedback_is_the_last_object_whole() -> None:
    chunks = [
        {"promptFeedback": {"safetyRatings": [{"category": "HATE"}]}},
        {"promptFeedback": {"blockReason": "SAFETY"}},
        {"promptFeedback": "x"},
        {"promptFeedback": None},
    ]
    assert fold(chunks) == {"promptFeedback": {"blockReason": "SAFETY"}}


def test_usage_is_the_last_object_whole_and_can_go_down() -> None:
    chunks = [
        {"usageMetadata": {"trafficType": "ON_DEMAND"}},
        {
            "usageMetadata": {
                "promptTokenCount": 9,
                "thoughtsTokenCount": 244,
                "totalTokenCount": 1471,
            }
        },
        {
            "usageMetadata": {
                "promptTokenCount": 9,
                "thoughtsTokenCount": 167,
                "totalTokenCount": 1394,
            }
        },
    ]
    assert fold(chunks)["usageMetadata"] == {
        "promptTokenCount": 9,
        "thoughtsTokenCount": 167,
        "totalTokenCount": 1394,
    }


def test_usage_is_never_erased_or_summed() -> None:
    usage = {"promptTokenCount": 9, "candidatesTokenCount": 5, "totalTokenCount": 14}
    chunks = [{"usageMetadata": usage}, {"usageMetadata": None}, {"usageMetadata": [1]}, {}]
    assert fold(chunks)["usageMetadata"] == usage


def test_usage_is_absent_when_none_arrived() -> None:
    assert "usageMetadata" not in fold([chunk({"text": "a"}, finishReason="STOP")])
