"""The incremental interface and robustness of the Gemini fold.

Worked examples of the spec's Lifecycle and Robustness sections.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from _gemini_streams import chunk

from refold.reference._errors import ChunkTypeError, EmptyFoldError
from refold.reference.gemini import Accumulator, GeminiChunkTypeError, NoResponseError, fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_reading_before_any_chunk_raises_a_documented_error": ("GM-LIFE-EMPTY",),
    "test_every_read_is_a_new_value_and_chunks_are_never_mutated": ("GM-LIFE-SNAPSHOT",),
    "test_finished_once_every_candidate_has_a_finish_reason": ("GM-LIFE-FINISHED",),
    "test_a_blocked_prompt_is_finished": ("GM-LIFE-FINISHED", "GM-PROMPT-FEEDBACK"),
    "test_an_error_chunk_is_recorded_terminal_and_keeps_the_partial_response": (
        "GM-LIFE-ERROR",
        "GM-ENV-NO-ERROR",
    ),
    "test_a_truncated_stream_is_not_finished_and_reads_partial": ("GM-LIFE-TRUNCATED",),
    "test_chunks_after_finishing_still_fold": ("GM-LIFE-AFTER-FINISH", "GM-USAGE-LAST"),
    "test_a_chunk_that_is_not_an_object_is_refused_and_changes_nothing": ("GM-ROB-NOT-OBJECT",),
    "test_fields_of_the_wrong_type_are_absent_and_never_raise": ("GM-ROB-WRONG-TYPE",),
    "test_null_and_non_object_entries_are_skipped": ("GM-ROB-NULL-ENTRIES",),
    "test_unknown_keys_are_kept_where_they_arrive": ("GM-UNKNOWN-KEYS",),
}


def test_reading_before_any_chunk_raises_a_documented_error() -> None:
    accumulator = Accumulator()
    with pytest.raises(NoResponseError, match="GM-LIFE-EMPTY") as caught:
        accumulator.response()
    assert isinstance(caught.value, EmptyFoldError) and caught.value.refused == 0
    with pytest.raises(GeminiChunkTypeError):
        accumulator.add([])
    with pytest.raises(GeminiChunkTypeError):
        accumulator.add("[]")
    with pytest.raises(NoResponseError, match=r"\(2 refused\)"):
        accumulator.response()
    accumulator.add({})
    with pytest.raises(GeminiChunkTypeError, match="chunk 3"):
        accumulator.add(1)
    assert accumulator.response() == {}
    with pytest.raises(NoResponseError):
        fold([])


def test_every_read_is_a_new_value_and_chunks_are_never_mutated() -> None:
    chunks = [
        chunk(
            {"text": "a"},
            safetyRatings=[{"category": "H"}],
            citationMetadata={"citations": [{"u": 1}]},
        ),
        chunk({"text": "b"}, groundingMetadata={"g": [1]}),
        {"usageMetadata": {"totalTokenCount": 1}, "future": {"k": [1]}},
    ]
    sent = copy.deepcopy(chunks)
    accumulator = Accumulator()
    for item in chunks:
        accumulator.add(item)
    first = accumulator.response()
    second = accumulator.response()
    assert first == second and first is not second
    first["candidates"][0]["safetyRatings"][0]["category"] = "changed"
    first["candidates"][0]["citationMetadata"]["citations"].append(2)
    first["candidates"][0]["groundingMetadata"]["g"].append(2)
    first["candidates"][0]["content"]["parts"].append({"text": "x"})
    first["usageMetadata"]["totalTokenCount"] = 99
    first["future"]["k"].append(2)
    assert accumulator.response() == second
    accumulator.add(chunk({"text": "c"}))
    assert second["candidates"][0]["content"]["parts"] == [{"text": "ab"}]
    assert chunks == sent


def test_finished_once_every_candidate_has_a_finish_reason() -> None:
    accumulator = Accumulator()
    assert not accumulator.finished
    accumulator.add({"usageMetadata": {"trafficType": "ON_DEMAND"}})
    assert not accumulator.finished
    accumulator.add({"candidates": [{"index": 0, "finishReason": "STOP"}, {"index": 1}]})
    assert not accumulator.finished
    accumulator.add({"candidates": [{"index": 1, "finishReason": "MAX_TOKENS"}]})
    assert accumulator.finished


def test_a_blocked_prompt_is_finished() -> None:
    accumulator = Accumulator()
    accumulator.add({"promptFeedback": {"safetyRatings": []}})
    assert not accumulator.finished
    accumulator.add({"promptFeedback": {"blockReason": "OTHER"}})
    assert accumulator.finished


def test_an_error_chunk_is_recorded_terminal_and_keeps_the_partial_response() -> None:
    accumulator = Accumulator()
    assert accumulator.error is None
    accumulator.add(chunk({"text": "par"}))
    accumulator.add({"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}})
    accumulator.add(chunk({"text": "tial"}, finishReason="STOP"))
    assert accumulator.error == {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}
    assert not accumulator.finished
    assert accumulator.response() == {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "par"}]}, "index": 0}]
    }
    error = accumulator.error
    assert error is not None
    error["code"] = 0
    assert accumulator.error["code"] == 503  # type: ignore[index]
    with pytest.raises(GeminiChunkTypeError):
        accumulator.add(None)  # still refused after the error
    only_error = Accumulator()
    only_error.add({"error": "string"})
    assert only_error.error == {} and only_error.response() == {}


def test_a_truncated_stream_is_not_finished_and_reads_partial() -> None:
    accumulator = Accumulator()
    accumulator.add(chunk({"text": "Once upon"}))
    assert not accumulator.finished
    assert accumulator.response()["candidates"][0]["content"]["parts"] == [{"text": "Once upon"}]


def test_chunks_after_finishing_still_fold() -> None:
    accumulator = Accumulator()
    accumulator.add(chunk({"text": "a"}, finishReason="STOP"))
    assert accumulator.finished
    accumulator.add({"usageMetadata": {"totalTokenCount": 5}})
    accumulator.add(chunk({"text": "b"}))
    assert accumulator.finished
    response = accumulator.response()
    assert response["usageMetadata"] == {"totalTokenCount": 5}
    assert response["candidates"][0]["content"]["parts"] == [{"text": "ab"}]


@pytest.mark.parametrize("value", [None, [], "x", 1, 1.5, True])
def test_a_chunk_that_is_not_an_object_is_refused_and_changes_nothing(value: Any) -> None:
    accumulator = Accumulator()
    accumulator.add(chunk({"text": "a"}))
    accumulator.add(chunk({"text": "b"}))
    before = accumulator.response()
    with pytest.raises(GeminiChunkTypeError, match="GM-ROB-NOT-OBJECT: chunk 2") as caught:
        accumulator.add(value)
    assert isinstance(caught.value, ChunkTypeError) and isinstance(caught.value, TypeError)
    assert caught.value.chunk_number == 2 and caught.value.pointer == ""
    assert caught.value.received_type == _JSON_TYPES[type(value)]
    assert str(caught.value).endswith(f"received {value!r}")
    assert accumulator.response() == before


_JSON_TYPES = {type(None): "null", list: "array", str: "string", int: "number", float: "number"}
_JSON_TYPES[bool] = "boolean"


def test_fields_of_the_wrong_type_are_absent_and_never_raise() -> None:
    chunks: list[Any] = [
        {"candidates": "x", "usageMetadata": 3, "promptFeedback": [], "modelVersion": 1},
        {"candidates": [{"content": [], "finishReason": 1, "safetyRatings": {}, "index": True}]},
        {"candidates": [{"citationMetadata": [], "groundingMetadata": "g"}]},
        chunk({"text": 5}, {"functionCall": "f"}, {"thoughtSignature": 1, "text": "a"}),
    ]
    assert fold(chunks)["candidates"] == [
        {
            "index": 0,
            "content": {
                "role": "model",
                "parts": [{"text": 5}, {"functionCall": "f"}, {"text": "a"}],
            },
        }
    ]


def test_null_and_non_object_entries_are_skipped() -> None:
    chunks: list[Any] = [
        {"candidates": [None, 1, chunk({"text": "a"})["candidates"][0]]},
        chunk(None, [], {"text": "b"}, safetyRatings=[None, "x"]),
    ]
    assert fold(chunks)["candidates"] == [
        {"content": {"role": "model", "parts": [{"text": "ab"}]}, "index": 0}
    ]


def test_unknown_keys_are_kept_where_they_arrive() -> None:
    chunks = [
        {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"mediaProcessing": {"x": 1}}], "c": 1},
                    "newCandidateKey": True,
                }
            ],
            "newTopKey": "t",
        }
    ]
    assert fold(chunks) == {
        "candidates": [
            {
                "content": {"c": 1, "role": "model", "parts": [{"mediaProcessing": {"x": 1}}]},
                "newCandidateKey": True,
                "index": 0,
            }
        ],
        "newTopKey": "t",
    }
