"""`ai-sdk-google` measured: the Vercel AI SDK's Google provider (`@ai-sdk/google` 3.0.141).

The target folds the provider's `doStream` parts back into a GenerateContentResponse, as
`streamText` builds its result from the same parts (research gemini-fold.md R12.3); it is
run as `node ai-sdk-google.js` over the exec: protocol and compared with the reference fold
under the dialect's canonical comparison. Each defect is pinned by a test named after it,
with the rules it breaks in `RULES_CHECKED`; where the provider is right the test asserts
agreement (hand-written streams, and drawn ones from `refold.strategies.gemini`). The tests
skip only when `node` is absent.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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

from refold.reference import JSONObject
from refold.reference.gemini import RULES, fold, rules_at
from refold.strategies.gemini import round_trips

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_ai_sdk_folds_these_streams_as_the_reference_does": (
        "GM-TEXT-JOIN",
        "GM-TEXT-EMPTY",
        "GM-FINISH",
        "GM-ROLE",
        "GM-SIGNATURE",
        "GM-THOUGHT-APART",
        "GM-INLINE",
        "GM-USAGE-LAST",
        "GM-LIFE-AFTER-FINISH",
        "GM-PART-OTHER",
        "GM-CALL-STREAMED",
        "GM-CALL-PARTIAL-ARGS",
        "GM-CAND-INDEX",
        "GM-CAND-KEYS",
    ),
    "test_ai_sdk_drops_the_model_version": ("GM-ENV-ID",),
    "test_ai_sdk_keeps_candidate_0_only_and_splices_a_lone_candidate_1_into_it": (
        "GM-CAND-INDEX",
        "GM-CAND-ORDER",
    ),
    "test_ai_sdk_joins_text_after_a_call_to_the_text_before_it": (
        "GM-TEXT-JOIN",
        "GM-CALL-WHOLE",
    ),
    "test_ai_sdk_invents_an_id_for_a_call_that_has_none": ("GM-CALL-ID",),
    "test_ai_sdk_drops_a_signature_only_part_when_no_answer_run_is_open": ("GM-SIGNATURE",),
    "test_ai_sdk_moves_a_chunks_calls_after_its_other_parts": ("GM-CALL-WHOLE",),
    "test_ai_sdk_joins_onto_a_signed_run_keeping_the_last_signature": (
        "GM-SIGNATURE",
        "GM-TEXT-JOIN",
    ),
    "test_ai_sdk_drops_file_data_function_responses_and_unknown_parts": (
        "GM-INLINE",
        "GM-PART-OTHER",
        "GM-UNKNOWN-KEYS",
    ),
    "test_ai_sdk_drops_the_extra_keys_of_a_text_part": ("GM-PART-OTHER", "GM-UNKNOWN-KEYS"),
    "test_ai_sdk_invents_an_empty_output_for_a_code_result_without_one": ("GM-CODE",),
    "test_ai_sdk_loses_a_streamed_call_ended_by_a_fragment_that_lists_a_continued_piece": (
        "GM-CALL-STREAMED",
    ),
    "test_ai_sdk_keeps_the_last_safety_list_instead_of_merging_by_category": ("GM-SAFETY",),
    "test_ai_sdk_keeps_the_last_grounding_object_instead_of_merging_per_key": ("GM-GROUNDING",),
    "test_ai_sdk_drops_citations_and_keys_it_has_no_place_for": (
        "GM-CITATIONS",
        "GM-ENV-SNAPSHOT",
        "GM-CAND-KEYS",
        "GM-UNKNOWN-KEYS",
    ),
    "test_ai_sdk_drops_a_checkpoint_continuation_token_on_a_normal_finish": ("GM-CAND-KEYS",),
    "test_ai_sdk_a_blocked_prompt_has_no_candidate": ("GM-CAND-NONE", "GM-PROMPT-FEEDBACK"),
    "test_ai_sdk_fails_on_a_null_part_or_a_field_of_the_wrong_type": (
        "GM-ROB-NULL-ENTRIES",
        "GM-ROB-WRONG-TYPE",
    ),
    "test_ai_sdk_refuses_a_chunk_that_is_not_an_object": ("GM-ROB-NOT-OBJECT",),
    "test_ai_sdk_records_an_error_chunk_and_keeps_the_partial_answer": ("GM-LIFE-ERROR",),
    "test_ai_sdk_fails_on_an_error_chunk_whose_error_is_not_an_object": ("GM-LIFE-ERROR",),
    "test_ai_sdk_folds_the_chunks_after_an_error_chunk": ("GM-LIFE-ERROR",),
    "test_ai_sdk_is_finished_by_a_finish_reason_and_not_before": (
        "GM-LIFE-FINISHED",
        "GM-LIFE-TRUNCATED",
    ),
    "test_ai_sdk_usage_and_finish_reason_agree_with_the_reference_on_drawn_streams": (
        "GM-USAGE-LAST",
        "GM-FINISH",
    ),
}


@pytest.fixture(scope="module")
def ai() -> Iterator[NodeTarget]:
    yield from started("ai-sdk-google")


# ai-sdk-google (@ai-sdk/google 3.0.141): doStream parts, `candidates[0]` only.


_AI_AGREES: dict[str, list[Any]] = {
    "plain": PLAIN,
    "trailing-usage-only-chunk": [
        chunk({"text": "Hi"}, **STOP),
        {"usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 9}},
    ],
    "finish-chunk-without-content": [
        chunk({"text": "Hi"}),
        {"candidates": [{"finishReason": "SAFETY"}]},
    ],
    "signature-on-the-answer-run": [
        chunk({"text": "a"}),
        chunk({"text": "", "thoughtSignature": "U0lH"}, **STOP),
    ],
    "thought-then-answer": [
        chunk({"text": "t", "thought": True}),
        chunk({"text": "a", "thought": False}, **STOP),
    ],
    "inline-data-kept-apart": [
        chunk({"inlineData": {"mimeType": "audio/pcm", "data": "AAAA"}}),
        chunk({"inlineData": {"mimeType": "audio/pcm", "data": "BBBB"}}, **STOP),
    ],
    "usage-going-down": [
        {
            **chunk({"text": "a"}),
            "usageMetadata": {"thoughtsTokenCount": 244, "totalTokenCount": 1471},
        },
        {
            **chunk({"text": "b"}, **STOP),
            "usageMetadata": {"thoughtsTokenCount": 167, "totalTokenCount": 1394},
        },
    ],
    "usage-key-dropped": [
        {
            **chunk({"text": "a"}),
            "usageMetadata": {"cachedContentTokenCount": 5, "totalTokenCount": 10},
        },
        {**chunk({"text": "b"}, **STOP), "usageMetadata": {"totalTokenCount": 12}},
    ],
    "empty-part-and-content-without-role": [
        {"candidates": [{"content": {"parts": [{}, {"text": "Hi"}]}, "finishReason": "STOP"}]}
    ],
    "safety-finish-without-any-content": [{"candidates": [{"finishReason": "SAFETY"}]}],
    "empty-text-after-finish": [chunk({"text": "a"}, **STOP), chunk({"text": ""})],
    "streamed-call-arguments": STREAMED_CALL,
    # the provider asks for the rest (served empty): the token and reason stand
    "continuation-with-token": [
        {
            **chunk({"text": "Hi"}, finishReason="CONTINUATION", continuationToken="tok"),
            "usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 5},
        }
    ],
    # the provider never reads `index`: a string index is candidate 0, as GM-CAND-INDEX says
    "index-a-string": [
        chunk({"text": "a"}),
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "b"}]}, "index": "0"}]},
        chunk({"text": "c"}, **STOP),
    ],
}


@pytest.mark.parametrize("name", sorted(_AI_AGREES))
def test_ai_sdk_folds_these_streams_as_the_reference_does(ai: NodeTarget, name: str) -> None:
    assert gaps(ai, _AI_AGREES[name]) == []


def test_ai_sdk_drops_the_model_version(ai: NodeTarget) -> None:
    chunks = [{**chunk({"text": "Hi"}, **STOP), "modelVersion": "gemini-x", "responseId": "r1"}]
    assert gaps(ai, chunks) == [("/modelVersion", "gemini-x", None)]


def test_ai_sdk_keeps_candidate_0_only_and_splices_a_lone_candidate_1_into_it(
    ai: NodeTarget,
) -> None:
    lone_1 = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "B"}]}, "index": 1, **STOP}]
    }
    chunks = [chunk({"text": "A"}, index=0), lone_1, chunk({"text": "a"}, index=0, **STOP)]
    assert gaps(ai, chunks) == [
        ("/candidates/0/content/parts/0/text", "Aa", "ABa"),
        ("/candidates/1", fold(chunks)["candidates"][1], None),
    ]


def test_ai_sdk_joins_text_after_a_call_to_the_text_before_it(ai: NodeTarget) -> None:
    call = {"functionCall": {"name": "f", "args": {"x": 1}, "id": "c1"}}
    chunks = [chunk({"text": "a"}, call, {"text": "b"}, **STOP)]
    assert parts(ai.fold(chunks)) == [{"text": "ab"}, call]
    assert parts(fold(chunks)) == [{"text": "a"}, call, {"text": "b"}]


def test_ai_sdk_invents_an_id_for_a_call_that_has_none(ai: NodeTarget) -> None:
    chunks = [chunk({"functionCall": {"name": "f", "args": {"x": 1}}}, **STOP)]
    first, second = (ai.fold(chunks) for _ in range(2))
    ids = [parts(r)[0]["functionCall"]["id"] for r in (first, second)]
    assert all(isinstance(i, str) and len(i) == 16 for i in ids) and ids[0] != ids[1]
    assert [g[0] for g in gaps(ai, chunks)] == ["/candidates/0/content/parts/0/functionCall/id"]
    assert RULES["GM-CALL-ID"].id in rules_at("/candidates/0/content/parts/0/functionCall/id")


@pytest.mark.parametrize(
    "before",
    [
        {"text": "t", "thought": True},
        {"inlineData": {"mimeType": "image/png", "data": "AAAA"}},
        {"functionCall": {"name": "f", "args": {"x": 1}, "id": "c1"}},
    ],
    ids=["after-thoughts", "after-an-image", "after-a-call"],
)
def test_ai_sdk_drops_a_signature_only_part_when_no_answer_run_is_open(
    ai: NodeTarget, before: JSONObject
) -> None:
    # an empty signed text part reaches a text-delta only when a text block is open (R12.3)
    chunks = [chunk(before), chunk({"text": "", "thoughtSignature": "U0lH"}, **STOP)]
    assert gaps(ai, chunks) == [
        ("/candidates/0/content/parts/1", {"text": "", "thoughtSignature": "U0lH"}, None)
    ]


def test_ai_sdk_moves_a_chunks_calls_after_its_other_parts(ai: NodeTarget) -> None:
    # calls are read in a second loop over the chunk's parts, after every other part
    call = {"functionCall": {"name": "f", "args": {"x": 1}, "id": "c1"}, "thoughtSignature": "U0lH"}
    chunks = [chunk(call, {"text": "a"}, **STOP)]
    assert parts(ai.fold(chunks)) == [{"text": "a"}, call]
    assert parts(fold(chunks)) == [call, {"text": "a"}]


@pytest.mark.parametrize("thought", [False, True], ids=["answer", "thought"])
def test_ai_sdk_joins_onto_a_signed_run_keeping_the_last_signature(
    ai: NodeTarget, thought: bool
) -> None:
    kind: JSONObject = {"thought": True} if thought else {}
    chunks = [
        chunk({"text": "a", "thoughtSignature": "QQ==", **kind}),
        chunk({"text": "b", "thoughtSignature": "Qg==", **kind}, **STOP),
    ]
    assert parts(ai.fold(chunks)) == [{"text": "ab", "thoughtSignature": "Qg==", **kind}]
    assert parts(fold(chunks)) == [
        {"text": "a", "thoughtSignature": "QQ==", **kind},
        {"text": "b", "thoughtSignature": "Qg==", **kind},
    ]


@pytest.mark.parametrize(
    "part",
    [
        {"fileData": {"mimeType": "image/png", "fileUri": "gs://b/x"}},
        {"functionResponse": {"name": "f", "response": {"r": 1}}},
        {"toolCall": {"id": "t1", "toolType": "GOOGLE_SEARCH", "args": {"q": "x"}}},
        {"futurePart": {"k": 1}},
    ],
    ids=["file-data", "function-response", "server-tool-call", "unknown-kind"],
)
def test_ai_sdk_drops_file_data_function_responses_and_unknown_parts(
    ai: NodeTarget, part: JSONObject
) -> None:
    chunks = [chunk({"text": "a"}, part, **STOP)]
    assert gaps(ai, chunks) == [("/candidates/0/content/parts/1", part, None)]


def test_ai_sdk_drops_the_extra_keys_of_a_text_part(ai: NodeTarget) -> None:
    chunks = [chunk({"text": "a", "partMetadata": {"k": 1}}, **STOP)]
    assert gaps(ai, chunks) == [("/candidates/0/content/parts/0/partMetadata", {"k": 1}, None)]


def test_ai_sdk_invents_an_empty_output_for_a_code_result_without_one(ai: NodeTarget) -> None:
    code = {"executableCode": {"language": "PYTHON", "code": "print(1)"}}
    result = {"codeExecutionResult": {"outcome": "OUTCOME_OK"}}
    chunks = [chunk(code), chunk(result, **STOP)]
    assert gaps(ai, chunks) == [
        ("/candidates/0/content/parts/1/codeExecutionResult/output", None, "")
    ]


def test_ai_sdk_loses_a_streamed_call_ended_by_a_fragment_that_lists_a_continued_piece(
    ai: NodeTarget,
) -> None:
    # the call ends with the fragment without willContinue (GM-CALL-STREAMED); the provider
    # ends it only when every piece of that fragment also lacks willContinue, and a call
    # still open when the stream ends is never emitted
    pieces = [
        {"jsonPath": "$.stops[0]", "stringValue": "Bergen", "willContinue": True},
        {"jsonPath": "$.note", "nullValue": "NULL_VALUE"},
    ]
    chunks = [
        chunk({"functionCall": {"name": "book", "id": "c1", "willContinue": True}}),
        chunk({"functionCall": {"partialArgs": pieces}}),
        {"candidates": [{"finishReason": "STOP"}]},
    ]
    assert parts(fold(chunks)) == [
        {"functionCall": {"name": "book", "id": "c1", "args": {"stops": ["Bergen"], "note": None}}}
    ]
    assert "content" not in ai.fold(chunks)["candidates"][0]


def test_ai_sdk_keeps_the_last_safety_list_instead_of_merging_by_category(
    ai: NodeTarget,
) -> None:
    low_a = {"category": "HARM_CATEGORY_HARASSMENT", "probability": "LOW"}
    low_b = {"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "LOW"}
    high_b = {**low_b, "probability": "HIGH"}
    chunks = [
        chunk({"text": "a"}, safetyRatings=[low_a, low_b]),
        chunk({"text": "b"}, safetyRatings=[high_b], **STOP),
    ]
    assert ai.fold(chunks)["candidates"][0]["safetyRatings"] == [high_b]
    assert fold(chunks)["candidates"][0]["safetyRatings"] == [low_a, high_b]


def test_ai_sdk_keeps_the_last_grounding_object_instead_of_merging_per_key(
    ai: NodeTarget,
) -> None:
    chunks = [
        chunk({"text": "a"}, groundingMetadata={"webSearchQueries": ["q"]}),
        chunk(
            {"text": "b"},
            groundingMetadata={"groundingChunks": [{"web": {"uri": "https://x", "title": "t"}}]},
            **STOP,
        ),
    ]
    assert gaps(ai, chunks) == [("/candidates/0/groundingMetadata/webSearchQueries", ["q"], None)]


def test_ai_sdk_drops_citations_and_keys_it_has_no_place_for(ai: NodeTarget) -> None:
    chunks = [
        {
            **chunk(
                {"text": "a"},
                citationMetadata={"citationSources": [{"uri": "https://x"}]},
                avgLogprobs=-0.5,
                finishMessage="done",
                **STOP,
            ),
            "createTime": "2026-12-06T00:00:00Z",
            "modelStatus": {"stage": "GA"},
        }
    ]
    assert sorted(pointer for pointer, _, received in gaps(ai, chunks) if received is None) == [
        "/candidates/0/avgLogprobs",
        "/candidates/0/citationMetadata",
        "/createTime",
        "/modelStatus",
    ]


def test_ai_sdk_drops_a_checkpoint_continuation_token_on_a_normal_finish(
    ai: NodeTarget,
) -> None:
    # live streams carry a token on every chunk from the first checkpoint on, except the
    # final STOP chunk (R11); the provider surfaces it only after MAX_TOKENS/CONTINUATION
    chunks = [chunk({"text": "a"}, continuationToken="tok"), chunk({"text": "b"}, **STOP)]
    assert gaps(ai, chunks) == [("/candidates/0/continuationToken", "tok", None)]


def test_ai_sdk_a_blocked_prompt_has_no_candidate(ai: NodeTarget) -> None:
    # right but for the model version the provider never reads
    assert gaps(ai, BLOCKED) == [("/modelVersion", "gemini-x", None)]


@pytest.mark.parametrize(
    "damaged",
    [
        {"candidates": [{"content": {"role": "model", "parts": [None, {"text": "a"}]}}]},
        {"candidates": [None]},
        {"candidates": "x"},
        {"candidates": [{"content": "x"}]},
        {
            "candidates": [
                {"content": {"role": "model", "parts": [{"text": "a"}]}, "finishReason": 3}
            ]
        },
        {"usageMetadata": [1]},
    ],
    ids=[
        "null-part",
        "null-candidate",
        "candidates-not-a-list",
        "content-not-an-object",
        "finish-reason-a-number",
        "usage-a-list",
    ],
)
def test_ai_sdk_fails_on_a_null_part_or_a_field_of_the_wrong_type(
    ai: NodeTarget, damaged: JSONObject
) -> None:
    chunks = [chunk({"text": "Hi"}), damaged, chunk({"text": "!"}, **STOP)]
    fold(chunks)  # the reference skips or ignores what is damaged
    with pytest.raises(Refused) as raised:
        ai.fold(chunks)
    assert raised.value.kind == "AI_TypeValidationError"


def test_ai_sdk_refuses_a_chunk_that_is_not_an_object(ai: NodeTarget) -> None:
    with pytest.raises(Refused, match="expected object") as raised:
        ai.fold([chunk({"text": "a"}), 3])
    assert raised.value.kind == "AI_TypeValidationError"


def test_ai_sdk_records_an_error_chunk_and_keeps_the_partial_answer(ai: NodeTarget) -> None:
    error = {"code": 500, "message": "boom", "status": "INTERNAL"}
    response, finished, recorded = ai.lifecycle([chunk({"text": "a"}), {"error": error}])
    assert (response, finished, recorded) == (
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "a"}]}}]},
        False,
        error,
    )
    assert parts(fold([chunk({"text": "a"}), {"error": error}])) == [{"text": "a"}]


def test_ai_sdk_fails_on_an_error_chunk_whose_error_is_not_an_object(ai: NodeTarget) -> None:
    # the reference records {} for it (GM-LIFE-ERROR); the provider's chunk schema refuses it
    with pytest.raises(Refused, match="expected object") as raised:
        ai.lifecycle([chunk({"text": "a"}), {"error": "overloaded"}])
    assert raised.value.kind == "AI_TypeValidationError"


def test_ai_sdk_folds_the_chunks_after_an_error_chunk(ai: NodeTarget) -> None:
    error = {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}
    chunks = [chunk({"text": "Hel"}), {"error": error}, chunk({"text": "lo"}, **STOP)]
    response, finished, recorded = ai.lifecycle(chunks)
    assert (parts(response), finished, recorded) == ([{"text": "Hello"}], False, error)
    assert parts(fold(chunks)) == [{"text": "Hel"}]  # the error is terminal
    assert "finishReason" not in fold(chunks)["candidates"][0]


def test_ai_sdk_is_finished_by_a_finish_reason_and_not_before(ai: NodeTarget) -> None:
    assert ai.lifecycle(PLAIN[:1])[1:] == (False, None)
    assert ai.lifecycle(PLAIN)[1:] == (True, None)


@DRAWN
@given(case=round_trips(features={"text", "usage"}))
def test_ai_sdk_usage_and_finish_reason_agree_with_the_reference_on_drawn_streams(
    ai: NodeTarget, case: tuple[JSONObject, list[JSONObject]]
) -> None:
    response, chunks = case
    received = ai.fold(chunks)
    assert received.get("usageMetadata") == response.get("usageMetadata")
    expected = response.get("candidates") or [{}]
    got = received.get("candidates") or [{}]
    assert got[0].get("finishReason") == expected[0].get("finishReason")
