"""The built-in Node.js targets of the Gemini dialect, and `google-genai-node` measured.

`google-genai-node` is `@google/genai`'s chat session: `sendMessageStream` read to its end,
then `getHistory()`, the one thing the SDK accumulates from a stream (research
gemini-fold.md R12.2); `ai-sdk-google` (test_node_gemini_ai_sdk.py) is `@ai-sdk/google`'s
`doStream` parts folded as `streamText` folds them. Each runs as `node <file>` over the
exec: protocol and is compared with the reference fold under the dialect's canonical
comparison: each defect the pinned version has is pinned by a test named after it, with the
rules it breaks in `RULES_CHECKED`; where the SDK is right the test asserts agreement.
Streams are hand-written after the captures the research quotes, or drawn by
`refold.strategies.gemini`. One process per target serves the module; the tests skip only
when `node` is absent.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from _gemini_node import (
    BLOCKED,
    DRAWN,
    PLAIN,
    STOP,
    STREAMED_CALL,
    NodeTarget,
    Refused,
    chunk,
    gaps,
    parts,
    started,
)
from hypothesis import given

from refold.dialects.gemini import targets
from refold.reference import JSON, JSONObject
from refold.reference.gemini import RULES, fold
from refold.strategies.gemini import round_trips
from refold.targets import BUILTIN_TARGETS
from refold.targets.sdk import nodejs

GENAI_VERSION = "2.32.0"  # @google/genai, pinned by harness/targets/sdk/node/package-lock.json
AI_VERSION = "3.0.141"  # @ai-sdk/google

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_reading_the_ai_sdk_response_before_any_chunk_is_a_documented_error": ("GM-LIFE-EMPTY",),
    "test_genai_history_keeps_each_chunks_text_apart": ("GM-TEXT-JOIN",),
    "test_genai_history_keeps_nothing_outside_its_projection": (
        "GM-FINISH",
        "GM-USAGE-LAST",
        "GM-ENV-ID",
        "GM-SAFETY",
        "GM-GROUNDING",
        "GM-CITATIONS",
        "GM-CAND-KEYS",
        "GM-ENV-SNAPSHOT",
    ),
    "test_genai_a_trailing_usage_only_chunk_erases_the_answer": ("GM-LIFE-AFTER-FINISH",),
    "test_genai_a_finish_chunk_without_content_erases_the_answer": ("GM-ROLE", "GM-FINISH"),
    "test_genai_a_content_without_role_erases_the_answer": ("GM-ROLE",),
    "test_genai_a_stream_without_a_finish_reason_erases_the_answer": ("GM-LIFE-TRUNCATED",),
    "test_genai_an_empty_part_erases_the_answer": ("GM-PART-OTHER",),
    "test_genai_a_candidates_value_of_the_wrong_type_erases_the_answer": ("GM-ROB-WRONG-TYPE",),
    "test_genai_a_null_part_crashes_the_chat": ("GM-ROB-NULL-ENTRIES",),
    "test_genai_a_chunk_that_is_not_an_object_is_not_refused": ("GM-ROB-NOT-OBJECT",),
    "test_genai_keeps_candidate_0_only_and_splices_a_lone_candidate_1_into_it": (
        "GM-CAND-INDEX",
        "GM-CAND-ORDER",
    ),
    "test_genai_keeps_streamed_argument_fragments_unassembled": (
        "GM-CALL-STREAMED",
        "GM-CALL-PARTIAL-ARGS",
    ),
    "test_genai_a_blocked_prompt_becomes_an_empty_model_turn": (
        "GM-CAND-NONE",
        "GM-PROMPT-FEEDBACK",
    ),
    "test_genai_an_error_chunk_raises_or_erases_the_partial_answer": ("GM-LIFE-ERROR",),
    "test_genai_keeps_every_part_whole_in_place_with_its_keys": (
        "GM-CALL-WHOLE",
        "GM-CALL-ID",
        "GM-THOUGHT-APART",
        "GM-SIGNATURE",
        "GM-CODE",
        "GM-INLINE",
        "GM-PART-OTHER",
        "GM-UNKNOWN-KEYS",
    ),
    "test_genai_history_is_candidate_0s_parts_unjoined_or_an_empty_turn": (
        "GM-TEXT-JOIN",
        "GM-TEXT-EMPTY",
        "GM-SIGNATURE",
        "GM-CALL-WHOLE",
    ),
}


@pytest.fixture(scope="module")
def genai() -> Iterator[NodeTarget]:
    yield from started("google-genai-node")


@pytest.fixture(scope="module")
def ai() -> Iterator[NodeTarget]:
    yield from started("ai-sdk-google")


# The targets, their versions and what they claim.


def test_rules_checked_names_tests_and_rules_that_exist() -> None:
    for module in (sys.modules[__name__], importlib.import_module("test_node_gemini_ai_sdk")):
        table: dict[str, tuple[str, ...]] = module.RULES_CHECKED
        assert set(table) <= {name for name in vars(module) if name.startswith("test_")}
        assert {rule for rules in table.values() for rule in rules} <= RULES.keys()


def test_the_gemini_node_targets_are_built_in_names_for_node_and_their_file() -> None:
    for name, file in (
        ("google-genai-node", "google-genai-node.js"),
        ("ai-sdk-google", "ai-sdk-google.js"),
    ):
        path = Path(targets.__file__).resolve().parent / "node" / file
        assert BUILTIN_TARGETS[name] == f"exec:node {path}"
        assert path.is_file()


def test_the_lock_file_pins_the_versions_the_targets_report(
    genai: NodeTarget, ai: NodeTarget
) -> None:
    lock = json.loads((nodejs.NODE_DIR / "package-lock.json").read_text("utf-8"))["packages"]
    assert lock["node_modules/@google/genai"]["version"] == GENAI_VERSION
    assert lock["node_modules/@ai-sdk/google"]["version"] == AI_VERSION
    assert f"@google/genai {GENAI_VERSION}" in genai.target.description
    assert f"@ai-sdk/google {AI_VERSION}" in ai.target.description
    assert genai.target.dialect.name == ai.target.dialect.name == "gemini-generate-content"


def test_each_target_claims_what_its_sdks_result_can_hold(
    genai: NodeTarget, ai: NodeTarget
) -> None:
    # the history keeps Contents only and is recorded once, at the end: compared on
    # candidates' content, as the Python google-genai target
    assert {"usage", "safety", "grounding", "lifecycle", "sse"} & genai.target.features == set()
    assert genai.target.projection is not None
    assert genai.target.projection.pointers == ("/candidates/*/content",)
    # no stream part carries citations; the decoder is inside doStream
    assert ai.target.projection is None
    assert {"lifecycle", "usage", "safety"} <= ai.target.features
    assert {"citations", "sse"} & ai.target.features == set()


def test_reading_the_ai_sdk_response_before_any_chunk_is_a_documented_error(
    ai: NodeTarget,
) -> None:
    with pytest.raises(Refused, match="GM-LIFE-EMPTY: no chunk has been folded yet"):
        ai.lifecycle([])


# google-genai-node (@google/genai 2.32.0): the chat history is one Content per chunk.


def test_genai_history_keeps_each_chunks_text_apart(genai: NodeTarget) -> None:
    assert parts(genai.fold(PLAIN)) == [{"text": "Hel"}, {"text": "lo"}]
    assert gaps(genai, PLAIN)[:2] == [
        ("/candidates/0/content/parts/0/text", "Hello", "Hel"),
        ("/candidates/0/content/parts/1", None, {"text": "lo"}),
    ]


def test_genai_history_keeps_nothing_outside_its_projection(genai: NodeTarget) -> None:
    # every place but candidates' content: the projection's reason, so not judged
    chunks = [
        {
            **chunk(
                {"text": "Hi"},
                finishReason="STOP",
                finishMessage="done",
                safetyRatings=[{"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "LOW"}],
                groundingMetadata={"webSearchQueries": ["q"]},
                citationMetadata={"citationSources": [{"uri": "https://x"}]},
            ),
            "usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 4},
            "modelVersion": "gemini-x",
            "responseId": "r1",
            "createTime": "2026-12-06T00:00:00Z",
        }
    ]
    found = gaps(genai, chunks)
    assert {pointer for pointer, _, received in found if received is None} == {
        "/candidates/0/finishReason",
        "/candidates/0/finishMessage",
        "/candidates/0/safetyRatings",
        "/candidates/0/groundingMetadata",
        "/candidates/0/citationMetadata",
        "/usageMetadata",
        "/modelVersion",
        "/responseId",
        "/createTime",
    }
    assert all(received is None for _, _, received in found)  # the part itself is right


def test_genai_a_trailing_usage_only_chunk_erases_the_answer(genai: NodeTarget) -> None:
    chunks = [chunk({"text": "Hi"}, **STOP), {"usageMetadata": {"totalTokenCount": 9}}]
    # the usage-only chunk has no candidate: "invalid", so the turn is recorded empty
    assert genai.fold(chunks) == {"candidates": [{"content": {"role": "model", "parts": []}}]}
    assert ("/candidates/0/content/parts", [{"text": "Hi"}], None) in gaps(genai, chunks)


def test_genai_a_finish_chunk_without_content_erases_the_answer(genai: NodeTarget) -> None:
    chunks = [chunk({"text": "Hi"}), {"candidates": [{"finishReason": "SAFETY"}]}]
    assert parts(genai.fold(chunks)) == []
    assert parts(fold(chunks)) == [{"text": "Hi"}]


def test_genai_a_content_without_role_erases_the_answer(genai: NodeTarget) -> None:
    chunks = [{"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]}]
    assert parts(genai.fold(chunks)) == []
    assert fold(chunks)["candidates"][0]["content"] == {
        "role": "model",
        "parts": [{"text": "Hi"}],
    }


def test_genai_a_stream_without_a_finish_reason_erases_the_answer(genai: NodeTarget) -> None:
    # the reference's fold of a cut stream is the partial answer (GM-LIFE-TRUNCATED)
    chunks = [chunk({"text": "Hel"}), chunk({"text": "lo"})]
    assert parts(genai.fold(chunks)) == []
    assert parts(fold(chunks)) == [{"text": "Hello"}]


def test_genai_an_empty_part_erases_the_answer(genai: NodeTarget) -> None:
    chunks = [chunk({}, {"text": "Hi"}, **STOP)]
    assert parts(genai.fold(chunks)) == []
    assert parts(fold(chunks)) == [{"text": "Hi"}]


def test_genai_a_candidates_value_of_the_wrong_type_erases_the_answer(
    genai: NodeTarget,
) -> None:
    chunks = [chunk({"text": "a"}), {"candidates": "x"}, chunk({"text": "b"}, **STOP)]
    assert parts(genai.fold(chunks)) == []
    assert parts(fold(chunks)) == [{"text": "ab"}]


def test_genai_a_null_part_crashes_the_chat(genai: NodeTarget) -> None:
    with pytest.raises(Refused, match="Cannot convert undefined or null to object") as raised:
        genai.fold([chunk(None, {"text": "Hi"}, **STOP)])
    assert raised.value.kind == "TypeError"
    assert parts(fold([chunk(None, {"text": "Hi"}, **STOP)])) == [{"text": "Hi"}]


def test_genai_a_chunk_that_is_not_an_object_is_not_refused(genai: NodeTarget) -> None:
    # the reference refuses chunk 0 (GM-ROB-NOT-OBJECT); the chat records an empty turn
    assert parts(genai.fold([3])) == []


def test_genai_keeps_candidate_0_only_and_splices_a_lone_candidate_1_into_it(
    genai: NodeTarget,
) -> None:
    lone_1 = {"candidates": [{"content": {"role": "model", "parts": [{"text": "B"}]}, "index": 1}]}
    chunks = [chunk({"text": "A"}, index=0), lone_1, chunk({"text": "a"}, index=0, **STOP)]
    received = genai.fold(chunks)
    assert len(received["candidates"]) == 1
    assert parts(received) == [{"text": "A"}, {"text": "B"}, {"text": "a"}]
    assert [c["content"]["parts"] for c in fold(chunks)["candidates"]] == [
        [{"text": "Aa"}],
        [{"text": "B"}],
    ]


def test_genai_keeps_streamed_argument_fragments_unassembled(genai: NodeTarget) -> None:
    received = parts(genai.fold(STREAMED_CALL))
    assert received == [part for c in STREAMED_CALL for part in parts(c)]
    assert parts(fold(STREAMED_CALL)) == [
        {"functionCall": {"name": "getWeather", "id": "c1", "args": {"location": "Boston"}}}
    ]


def test_genai_a_blocked_prompt_becomes_an_empty_model_turn(genai: NodeTarget) -> None:
    assert genai.fold(BLOCKED) == {"candidates": [{"content": {"role": "model", "parts": []}}]}
    assert "candidates" not in fold(BLOCKED)
    assert fold(BLOCKED)["promptFeedback"] == {"blockReason": "SAFETY"}


def test_genai_an_error_chunk_raises_or_erases_the_partial_answer(genai: NodeTarget) -> None:
    error = {"code": 500, "message": "boom", "status": "INTERNAL"}
    with pytest.raises(Refused, match="got status: INTERNAL") as raised:
        genai.fold([chunk({"text": "a"}), {"error": error}])
    assert raised.value.kind == "ApiError"
    # an error whose code is not an HTTP error code is not raised: the turn is erased
    quiet = [chunk({"text": "a"}), {"error": {**error, "code": 200}}]
    assert parts(genai.fold(quiet)) == []
    assert parts(fold(quiet)) == [{"text": "a"}]  # the partial answer, the error recorded


@pytest.mark.parametrize(
    "sent",
    [
        [
            {"text": "a"},
            {"functionCall": {"name": "f", "args": {"x": 1}, "id": "c1"}},
            {"text": "b"},
        ],
        [{"functionCall": {"name": "f", "args": {"x": 1}}}, {"functionCall": {"name": "g"}}],
        [{"text": "t", "thought": True}, {"text": "", "thoughtSignature": "U0lH"}],
        [{"text": "a", "thoughtSignature": "QQ=="}, {"text": "b", "thoughtSignature": "Qg=="}],
        [{"text": "a"}, {"fileData": {"mimeType": "image/png", "fileUri": "gs://b/x"}}],
        [
            {"inlineData": {"mimeType": "audio/pcm", "data": "AAAA"}},
            {"inlineData": {"mimeType": "audio/pcm", "data": "BBBB"}},
        ],
        [
            {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
            {"codeExecutionResult": {"outcome": "OUTCOME_OK"}},
        ],
        [{"functionResponse": {"name": "f", "response": {"r": 1}}}],
        [
            {"text": "a"},
            {"toolCall": {"id": "t1", "toolType": "GOOGLE_SEARCH", "args": {"q": "x"}}},
        ],
        [{"text": "a", "partMetadata": {"k": 1}}],
        [{"text": "a", "thought": False}],
    ],
    ids=[
        "text-call-text",
        "calls-without-id",
        "signature-after-thought",
        "two-signed-texts",
        "file-data",
        "inline-data",
        "code",
        "function-response",
        "unknown-part",
        "text-with-extra-key",
        "thought-false",
    ],
)
def test_genai_keeps_every_part_whole_in_place_with_its_keys(
    genai: NodeTarget, sent: list[JSON]
) -> None:
    # one chunk per part: the only difference left is the finish reason, outside the projection
    chunks = [chunk(part) for part in sent[:-1]] + [chunk(sent[-1], **STOP)]
    assert gaps(genai, chunks) == [("/candidates/0/finishReason", "STOP", None)]


def _valid_for_the_chat(chunks: list[JSONObject]) -> bool:
    """@google/genai's `isValidResponse` on every chunk, and a finish reason seen: the
    condition under which `recordHistory` keeps the streamed contents (R12.2)."""
    finished = False
    for one in chunks:
        candidates = one.get("candidates")
        if not isinstance(candidates, list) or not candidates:
            return False
        first = candidates[0]
        content = first.get("content") if isinstance(first, dict) else None
        if not isinstance(content, dict) or "role" not in content:
            return False
        parts = content.get("parts")
        if not isinstance(parts, list) or not parts or any(p == {} for p in parts):
            return False
        finished = finished or first.get("finishReason") is not None
    return finished


@DRAWN
@given(case=round_trips(features={"text", "thinking", "tool_calls", "code_execution", "media"}))
def test_genai_history_is_candidate_0s_parts_unjoined_or_an_empty_turn(
    genai: NodeTarget, case: tuple[JSONObject, list[JSONObject]]
) -> None:
    response, chunks = case
    received = genai.fold(chunks)
    if not _valid_for_the_chat(chunks):
        assert parts(received) == []
        return
    # lossless: the history's parts, folded by the reference, are the response's parts
    refolded = fold([{"candidates": [{"content": received["candidates"][0]["content"]}]}])
    assert parts(refolded) == parts(fold(chunks)) == parts(response)
