"""The Gemini targets of libraries that build no response, langchain-google-genai
(`langchain-google-genai`) and litellm's Gemini provider (`litellm-gemini`), each checked on
the projection it declares (`refold.run.projection`: both folds reduced to the places
compared): each defect the research names (gemini-fold.md R12.4, R12.5, R13) that the pinned
version really has, and those found by drawing streams from `refold.strategies.gemini`,
pinned to the GM rule it breaks with a minimal stream (one test per finding: the difference
from the reference fold at a pointer that rule owns, or the raise); and where the library is
right, agreement with the reference. `RULES_CHECKED` names the rules each test checks.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
from collections.abc import Callable, Iterator

import pytest
from _gemini_streams import chunk
from hypothesis import HealthCheck, given, settings

from refold.reference import JSON, JSONObject
from refold.reference.gemini import differences, rules_at
from refold.reference.gemini import fold as reference
from refold.run.projection import projection_of
from refold.strategies.gemini import round_trips

Fold = Callable[[list[JSON]], JSONObject]

_needs_langchain = pytest.mark.skipif(
    importlib.util.find_spec("langchain_google_genai") is None,
    reason="install refold[langchain-google-genai]",
)
_needs_litellm = pytest.mark.skipif(
    importlib.util.find_spec("litellm") is None, reason="install refold[litellm]"
)

LANGCHAIN = "langchain-google-genai 4.4.3, langchain-core 1.8.3, google-genai 2.34.0"
LITELLM = "litellm 1.110.2"

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_the_targets_declare_their_dialect_projection_and_versions": ("GM-CAND-INDEX",),
    "test_importing_the_langchain_target_without_it_names_the_extra": ("GM-CAND-INDEX",),
    "test_langchain_agrees_with_the_reference_on_documented_text_streams": (
        "GM-TEXT-JOIN",
        "GM-FINISH",
        "GM-ENV-ID",
    ),
    "test_langchain_folds_a_continuation_checkpoint_as_one_call": ("GM-FINISH",),
    "test_langchain_keeps_whole_code_parts_and_thought_runs": (
        "GM-CODE",
        "GM-THOUGHT-APART",
        "GM-TEXT-JOIN",
    ),
    "test_gm_usage_last_langchain_keeps_the_higher_count_when_usage_goes_down": ("GM-USAGE-LAST",),
    "test_gm_usage_last_langchain_drops_an_all_zero_usage": ("GM-USAGE-LAST",),
    "test_gm_finish_langchain_concatenates_the_finish_reasons_of_two_candidates": (
        "GM-FINISH",
        "GM-CAND-INDEX",
        "GM-CAND-ORDER",
    ),
    "test_gm_safety_langchain_repeats_a_rating_resent_on_every_chunk": ("GM-SAFETY",),
    "test_gm_grounding_langchain_concatenates_resent_grounding_metadata": ("GM-GROUNDING",),
    "test_gm_signature_langchain_joins_a_second_signed_run_and_loses_its_signature": (
        "GM-SIGNATURE",
    ),
    "test_gm_call_id_langchain_drops_the_call_id": ("GM-CALL-ID",),
    "test_gm_call_whole_langchain_moves_calls_after_the_text": ("GM-CALL-WHOLE",),
    "test_gm_call_streamed_langchain_makes_each_fragment_a_nameless_call": ("GM-CALL-STREAMED",),
    "test_gm_env_id_langchain_keeps_the_model_version_only_from_a_finish_chunk": ("GM-ENV-ID",),
    "test_gm_env_id_langchain_concatenates_the_model_version_of_two_finish_chunks": ("GM-ENV-ID",),
    "test_gm_prompt_feedback_langchain_drops_feedback_sent_beside_candidates": (
        "GM-PROMPT-FEEDBACK",
    ),
    "test_gm_cand_none_langchain_answers_a_blocked_prompt_with_an_empty_text_part": (
        "GM-CAND-NONE",
    ),
    "test_gm_life_error_langchain_raises_on_an_error_chunk": ("GM-LIFE-ERROR",),
    "test_litellm_agrees_with_the_reference_on_a_plain_text_answer": (
        "GM-TEXT-JOIN",
        "GM-FINISH",
        "GM-USAGE-LAST",
    ),
    "test_gm_call_whole_litellm_raises_on_a_call_without_args": ("GM-CALL-WHOLE",),
    "test_gm_call_streamed_litellm_raises_on_argument_fragments": ("GM-CALL-STREAMED",),
    "test_gm_usage_last_litellm_recomputes_the_total_and_adds_thoughts_to_candidates": (
        "GM-USAGE-LAST",
    ),
    "test_gm_usage_last_litellm_invents_usage_for_a_stream_without_any": ("GM-USAGE-LAST",),
    "test_gm_finish_litellm_maps_finish_reasons_through_chat": ("GM-FINISH",),
    "test_gm_cand_order_litellm_keeps_only_candidate_zero": ("GM-CAND-ORDER",),
    "test_gm_cand_none_litellm_invents_a_safety_candidate_for_a_blocked_prompt": ("GM-CAND-NONE",),
    "test_gm_thought_apart_litellm_drops_thoughts_code_signatures_and_ids": (
        "GM-THOUGHT-APART",
        "GM-CODE",
        "GM-SIGNATURE",
        "GM-CALL-ID",
    ),
    "test_gm_rob_wrong_type_the_libraries_raise_on_values_of_the_wrong_type": (
        "GM-ROB-WRONG-TYPE",
        "GM-ROB-NULL-ENTRIES",
    ),
}


def _langchain() -> Fold:
    from refold.dialects.gemini.targets.langchain_google_genai import fold

    return fold


def _litellm() -> Fold:
    from refold.dialects.gemini.targets.litellm_gemini import fold

    return fold


@pytest.fixture(autouse=True)
def _no_library_logs() -> Iterator[None]:
    # LangChain logs every candidate-less chunk, litellm every unmapped finish reason.
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


def _found(fold: Fold, chunks: list[JSON]) -> dict[str, str]:
    """The differences of `fold` from the reference on `chunks`, within the projection its
    target declares: pointer -> the difference line."""
    declared = sys.modules[fold.__module__].refold_target["projection"]
    projection = projection_of(declared, origin=fold.__module__)
    assert projection is not None
    expected = projection.reduce(reference(chunks))
    received = projection.reduce(fold(chunks))
    return {d.pointer: str(d) for d in differences(expected, received)}


def _at(fold: Fold, chunks: list[JSON], pointer: str, received: str, rule: str) -> None:
    """Assert that `fold` differs from the reference at `pointer`, where it has `received`
    (as the difference line shows it), and that `rule` owns that pointer."""
    found = _found(fold, chunks)
    assert pointer in found, found
    assert found[pointer].endswith(f"received {received}"), found[pointer]
    assert rule in rules_at(pointer), (pointer, rules_at(pointer))


def _raises(fold: Fold, chunks: list[JSON]) -> str:
    """The `Type: message` of what `fold` raised (fails if it returned), where the
    reference folds the same chunks."""
    reference(chunks)
    with pytest.raises(Exception) as raised:  # noqa: PT011 (which library error is the finding)
        fold(chunks)
    return f"{type(raised.value).__name__}: {raised.value}"


def _with(chunk_: JSONObject, **top: JSON) -> JSONObject:
    return {**chunk_, **top}


def _usage(prompt: int, candidates: int, total: int, **more: int) -> JSONObject:
    return {
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": total,
        **more,
    }


HELLO: list[JSON] = [
    _with(chunk({"text": "Hel"}, index=0), modelVersion="gemini-2.5-flash", responseId="r1"),
    _with(
        chunk({"text": "lo"}, index=0, finishReason="STOP"),
        modelVersion="gemini-2.5-flash",
        responseId="r1",
        usageMetadata=_usage(3, 2, 5),
    ),
]
"""Google's own shape: text in two chunks, finish reason and usage on the last."""

USAGE_DOWN: list[JSON] = [
    _with(chunk({"text": "a"}), usageMetadata=_usage(10, 244, 1471)),
    _with(chunk({"text": "b"}, finishReason="STOP"), usageMetadata=_usage(10, 167, 1394)),
]
"""R9: counts going down between chunks (`thoughtsTokenCount` 244 -> 167 in the capture)."""

TWO_CANDIDATES: list[JSON] = [
    chunk({"text": "A"}, index=0),
    chunk({"text": "B"}, index=1),
    chunk({"text": "C"}, index=0, finishReason="STOP"),
    {"candidates": [{"index": 1, "finishReason": "STOP"}]},
]
"""`candidateCount: 2`: candidate 1's chunks between candidate 0's."""

BLOCKED: list[JSON] = [
    {
        "promptFeedback": {"blockReason": "SAFETY"},
        "usageMetadata": {"promptTokenCount": 5, "totalTokenCount": 5},
        "modelVersion": "gemini-2.5-flash",
    }
]
"""R10: a blocked prompt streams one chunk without candidates."""

STREAMED_CALL: list[JSON] = [
    chunk({"functionCall": {"name": "getWeather", "willContinue": True}}),
    chunk(
        {
            "functionCall": {
                "partialArgs": [{"jsonPath": "$.location", "stringValue": "Boston"}],
                "willContinue": True,
            }
        }
    ),
    chunk({"functionCall": {}}, finishReason="STOP"),
]
"""R6 (Vertex): one call's arguments streamed in fragments, ended by `{"functionCall": {}}`."""

CALL = {"functionCall": {"name": "lookup", "args": {"q": "x"}, "id": "call_1"}}


def test_the_targets_declare_their_dialect_projection_and_versions() -> None:
    from refold.dialects.gemini.targets import SDK_TARGETS

    expected = {
        "langchain-google-genai": (LANGCHAIN, "langchain_google_genai", "langchain_google_genai"),
        "litellm-gemini": (LITELLM, "litellm_gemini", "litellm"),
    }
    for name, (version, module, library) in expected.items():
        if importlib.util.find_spec(library) is None:
            continue
        path = f"refold.dialects.gemini.targets.{module}"
        assert SDK_TARGETS[name] == f"{path}:refold_target"
        declared = importlib.import_module(path).refold_target
        assert declared["dialect"] == "gemini-generate-content"
        assert version in declared["description"]
        assert projection_of(declared["projection"], origin=name) is not None
        assert not {"lifecycle", "sse", "citations"} & set(declared["features"])


def test_importing_the_langchain_target_without_it_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from refold.errors import UsageError

    module = "refold.dialects.gemini.targets.langchain_google_genai"
    for name in [m for m in sys.modules if m.startswith(("langchain_google_genai", module))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "langchain_google_genai", None)
    with pytest.raises(UsageError, match=r"refold\[langchain-google-genai\]"):
        importlib.import_module(module)


# langchain-google-genai 4.4.3 (langchain-core 1.8.3, google-genai 2.34.0).


@_needs_langchain
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_trips(features={"text"}, families={1}))
def test_langchain_agrees_with_the_reference_on_documented_text_streams(
    case: tuple[JSONObject, list[JSONObject]],
) -> None:
    _, chunks = case
    assert _found(_langchain(), list(chunks)) == {}


@_needs_langchain
def test_langchain_folds_a_continuation_checkpoint_as_one_call() -> None:
    # The target turns google-genai's automatic continuation off: the served stream is one
    # call, and `CONTINUATION` is kept verbatim (with it on, the SDK would ask again and the
    # offline server would answer with the same chunks: "AA")
    checkpoint: list[JSON] = [
        chunk({"text": "A"}, finishReason="CONTINUATION", continuationToken="VE9L")
    ]
    assert _langchain()(checkpoint)["candidates"][0]["finishReason"] == "CONTINUATION"
    assert _found(_langchain(), checkpoint) == {}


@_needs_langchain
def test_langchain_keeps_whole_code_parts_and_thought_runs() -> None:
    chunks: list[JSON] = [
        chunk({"text": "Let me ", "thought": True}),
        chunk({"text": "run it.", "thought": True}),
        chunk(
            {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
            {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1"}},
            finishReason="STOP",
        ),
    ]
    assert _found(_langchain(), chunks) == {}


@_needs_langchain
def test_gm_usage_last_langchain_keeps_the_higher_count_when_usage_goes_down() -> None:
    # R12.4: running totals turned into deltas floored at zero (`subtract_usage`), only input
    # tokens compensated, then summed back: the research's 1471 vs 1394
    _at(_langchain(), USAGE_DOWN, "/usageMetadata/totalTokenCount", "1471", "GM-USAGE-LAST")
    _at(_langchain(), USAGE_DOWN, "/usageMetadata/candidatesTokenCount", "244", "GM-USAGE-LAST")


@_needs_langchain
def test_gm_usage_last_langchain_drops_an_all_zero_usage() -> None:
    # `_response_to_result` sets no usage_metadata when every count is 0
    chunks: list[JSON] = [
        _with(chunk({"text": "A"}, finishReason="STOP"), usageMetadata=_usage(0, 0, 0))
    ]
    _at(_langchain(), chunks, "/usageMetadata", "(absent)", "GM-USAGE-LAST")


@_needs_langchain
def test_gm_finish_langchain_concatenates_the_finish_reasons_of_two_candidates() -> None:
    # R12.4: `generations[0]` of each chunk, whatever its index, summed with merge_dicts:
    # candidate 1 is spliced into candidate 0 and the finish reasons concatenate
    fold = _langchain()
    _at(fold, TWO_CANDIDATES, "/candidates/0/finishReason", '"STOPSTOP"', "GM-FINISH")
    _at(fold, TWO_CANDIDATES, "/candidates/0/content/parts/0/text", '"ABC"', "GM-TEXT-JOIN")
    _at(fold, TWO_CANDIDATES, "/candidates/1", "(absent)", "GM-CAND-ORDER")


@_needs_langchain
def test_gm_safety_langchain_repeats_a_rating_resent_on_every_chunk() -> None:
    # R8, R12.4: Gemini resends the ratings on every chunk; merge_lists concatenates them
    rating = {"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"}
    chunks: list[JSON] = [
        chunk({"text": "A"}, safetyRatings=[rating]),
        chunk({"text": "B"}, safetyRatings=[rating], finishReason="STOP"),
    ]
    received = '{"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"}'
    _at(_langchain(), chunks, "/candidates/0/safetyRatings/1", received, "GM-SAFETY")


@_needs_langchain
def test_gm_grounding_langchain_concatenates_resent_grounding_metadata() -> None:
    # R8 (langchainjs: "Gemini resends the accumulated metadata"): merge_dicts joins the
    # strings and lists of the two copies
    grounding = {"webSearchQueries": ["q"], "searchEntryPoint": {"renderedContent": "<p/>"}}
    chunks: list[JSON] = [
        chunk({"text": "A"}, groundingMetadata=grounding),
        chunk({"text": "B"}, groundingMetadata=grounding, finishReason="STOP"),
    ]
    fold = _langchain()
    pointer = "/candidates/0/groundingMetadata/searchEntryPoint/renderedContent"
    _at(fold, chunks, pointer, '"<p/><p/>"', "GM-GROUNDING")
    _at(fold, chunks, "/candidates/0/groundingMetadata/webSearchQueries/1", '"q"', "GM-GROUNDING")


@_needs_langchain
def test_gm_signature_langchain_joins_a_second_signed_run_and_loses_its_signature() -> None:
    # R5, R12.4: two signed text deltas become one block; the second signature is gone
    chunks: list[JSON] = [
        chunk({"text": "A", "thoughtSignature": "U0lHLTE2LUE="}),
        chunk({"text": "B", "thoughtSignature": "U0lHLTE2LUI="}, finishReason="STOP"),
    ]
    fold = _langchain()
    assert fold(chunks)["candidates"][0]["content"]["parts"] == [
        {"text": "AB", "thoughtSignature": "U0lHLTE2LUE="}
    ]
    _at(fold, chunks, "/candidates/0/content/parts/1", "(absent)", "GM-SIGNATURE")


@_needs_langchain
def test_gm_call_id_langchain_drops_the_call_id() -> None:
    # `_parse_chat_history` sends `FunctionCall(name, args)` back: the API's id is lost
    chunks: list[JSON] = [chunk(CALL, finishReason="STOP")]
    _at(
        _langchain(),
        chunks,
        "/candidates/0/content/parts/0/functionCall/id",
        "(absent)",
        "GM-CALL-ID",
    )


@_needs_langchain
def test_gm_call_whole_langchain_moves_calls_after_the_text() -> None:
    # `_parse_chat_history` converts the content first, then appends every tool call
    chunks: list[JSON] = [chunk(CALL), chunk({"text": "done"}, finishReason="STOP")]
    fold = _langchain()
    assert fold(chunks)["candidates"][0]["content"]["parts"] == [
        {"text": "done"},
        {"functionCall": {"args": {"q": "x"}, "name": "lookup"}},
    ]
    received = '{"args": {"q": "x"}, "name": "lookup"}'
    _at(fold, chunks, "/candidates/0/content/parts/1/functionCall", received, "GM-CALL-WHOLE")


@_needs_langchain
def test_gm_call_streamed_langchain_makes_each_fragment_a_nameless_call() -> None:
    # R12.4: neither `partial_args` nor `will_continue` is read
    fold = _langchain()
    parts = fold(STREAMED_CALL)["candidates"][0]["content"]["parts"]
    assert parts == [
        {"functionCall": {"args": {}, "name": "getWeather"}},
        {"functionCall": {"args": {}, "name": ""}},
        {"functionCall": {"args": {}, "name": ""}},
    ]
    # `args: {}` is absent under the canonical comparison (proto3)
    pointer = "/candidates/0/content/parts/0/functionCall/args"
    _at(fold, STREAMED_CALL, pointer, "(absent)", "GM-CALL-STREAMED")


@_needs_langchain
def test_gm_env_id_langchain_keeps_the_model_version_only_from_a_finish_chunk() -> None:
    # `model_name` is written only for a chunk with a finish reason; a stream cut before it
    # (or whose finish chunk omits modelVersion) has none
    chunks: list[JSON] = [_with(chunk({"text": "A"}), modelVersion="gemini-2.5-flash")]
    _at(_langchain(), chunks, "/modelVersion", "(absent)", "GM-ENV-ID")


@_needs_langchain
def test_gm_env_id_langchain_concatenates_the_model_version_of_two_finish_chunks() -> None:
    # each chunk with a finish reason adds `model_name`; merge_dicts joins the strings
    chunks: list[JSON] = [
        _with(chunk({"text": "A"}, index=0, finishReason="STOP"), modelVersion="m"),
        _with(chunk({"text": "B"}, index=1, finishReason="STOP"), modelVersion="m"),
    ]
    _at(_langchain(), chunks, "/modelVersion", '"mm"', "GM-ENV-ID")


@_needs_langchain
def test_gm_prompt_feedback_langchain_drops_feedback_sent_beside_candidates() -> None:
    # `_response_to_result` puts `prompt_feedback` in llm_output, and in the message's
    # response_metadata only for a chunk without candidates
    rating = {"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"}
    chunks: list[JSON] = [
        _with(chunk({"text": "A"}), promptFeedback={"safetyRatings": [rating]}),
        chunk({"text": "B"}, finishReason="STOP"),
    ]
    _at(_langchain(), chunks, "/promptFeedback", "(absent)", "GM-PROMPT-FEEDBACK")


@_needs_langchain
def test_gm_cand_none_langchain_answers_a_blocked_prompt_with_an_empty_text_part() -> None:
    # an empty AIMessage, which `_parse_chat_history` sends back as `[Part(text="")]`
    found = _found(_langchain(), BLOCKED)
    assert found["/candidates"].endswith(
        'received [{"content": {"parts": [{"text": ""}], "role": "model"}}]'
    )
    assert "GM-CAND-NONE" in rules_at("/candidates")


@_needs_langchain
def test_gm_life_error_langchain_raises_on_an_error_chunk() -> None:
    error = {"error": {"code": 429, "message": "slow", "status": "RESOURCE_EXHAUSTED"}}
    raised = _raises(_langchain(), [chunk({"text": "Hel"}), error])
    assert raised.startswith("GoogleRateLimitError: ") and "429 RESOURCE_EXHAUSTED" in raised


# litellm 1.110.2, Gemini provider.


@_needs_litellm
def test_litellm_agrees_with_the_reference_on_a_plain_text_answer() -> None:
    assert _found(_litellm(), HELLO) == {}


@_needs_litellm
def test_gm_call_whole_litellm_raises_on_a_call_without_args() -> None:
    # R12.5: `_transform_parts` reads `functionCall["args"]` unconditionally; Vertex sends
    # an argument-less call without `args` (`google-stream-no-args-tool-call`)
    chunks: list[JSON] = [chunk({"functionCall": {"name": "read_theme"}}, finishReason="STOP")]
    raised = _raises(_litellm(), chunks)
    assert raised.startswith("MidStreamFallbackError: ") and "'args'" in raised


@_needs_litellm
def test_gm_call_streamed_litellm_raises_on_argument_fragments() -> None:
    raised = _raises(_litellm(), STREAMED_CALL)
    assert raised.startswith("MidStreamFallbackError: ") and "'args'" in raised


@_needs_litellm
def test_gm_usage_last_litellm_recomputes_the_total_and_adds_thoughts_to_candidates() -> None:
    # `total_tokens = prompt + completion`, and completion includes the thought tokens
    fold = _litellm()
    _at(fold, USAGE_DOWN, "/usageMetadata/totalTokenCount", "177", "GM-USAGE-LAST")
    thinking: list[JSON] = [
        _with(
            chunk({"text": "A"}, finishReason="STOP"),
            usageMetadata=_usage(200, 2743, 3018, thoughtsTokenCount=75),
        )
    ]
    _at(fold, thinking, "/usageMetadata/candidatesTokenCount", "2818", "GM-USAGE-LAST")


@_needs_litellm
def test_gm_usage_last_litellm_invents_usage_for_a_stream_without_any() -> None:
    # stream_chunk_builder counts tokens itself when the stream sent no usage
    chunks: list[JSON] = [chunk({"text": "A"}, finishReason="STOP")]
    assert "usageMetadata" not in reference(chunks)
    found = _found(_litellm(), chunks)
    assert found["/usageMetadata"].startswith("at /usageMetadata: expected (absent), received {")
    assert "GM-USAGE-LAST" in rules_at("/usageMetadata")


@_needs_litellm
@pytest.mark.parametrize(
    ("reason", "received"),
    [("RECITATION", "SAFETY"), ("MALFORMED_FUNCTION_CALL", "STOP"), ("LANGUAGE", "SAFETY")],
)
def test_gm_finish_litellm_maps_finish_reasons_through_chat(reason: str, received: str) -> None:
    # the chat shape has four finish reasons; the Gemini reason is not kept verbatim
    chunks: list[JSON] = [chunk({"text": "A"}, finishReason=reason)]
    _at(_litellm(), chunks, "/candidates/0/finishReason", f'"{received}"', "GM-FINISH")


@_needs_litellm
def test_gm_cand_order_litellm_keeps_only_candidate_zero() -> None:
    fold = _litellm()
    assert fold(TWO_CANDIDATES)["candidates"][0]["content"]["parts"] == [{"text": "AC"}]
    _at(fold, TWO_CANDIDATES, "/candidates/1", "(absent)", "GM-CAND-ORDER")


@_needs_litellm
def test_gm_cand_none_litellm_invents_a_safety_candidate_for_a_blocked_prompt() -> None:
    found = _found(_litellm(), BLOCKED)
    assert found["/candidates"].endswith(
        'received [{"content": {"parts": [{"text": ""}], "role": "model"}, '
        '"finishReason": "SAFETY"}]'
    )


@_needs_litellm
def test_gm_thought_apart_litellm_drops_thoughts_code_signatures_and_ids() -> None:
    # R12.5: thoughts go to reasoning_content, code parts nowhere, signatures to
    # provider_specific_fields: the chat → Gemini transformation has no place for them
    fold = _litellm()
    thought: list[JSON] = [
        chunk({"text": "hmm", "thought": True}),
        chunk({"text": "answer"}, finishReason="STOP"),
    ]
    _at(fold, thought, "/candidates/0/content/parts/0/thought", "(absent)", "GM-THOUGHT-APART")
    code: list[JSON] = [
        chunk({"executableCode": {"language": "PYTHON", "code": "1"}}, finishReason="STOP")
    ]
    _at(fold, code, "/candidates/0/content/parts/0/executableCode", "(absent)", "GM-CODE")
    signed: list[JSON] = [
        chunk({"text": "A"}),
        chunk({"text": "", "thoughtSignature": "U0lHLTE="}, finishReason="STOP"),
    ]
    pointer = "/candidates/0/content/parts/0/thoughtSignature"
    _at(fold, signed, pointer, "(absent)", "GM-SIGNATURE")
    call: list[JSON] = [chunk(CALL, finishReason="STOP")]
    _at(fold, call, "/candidates/0/content/parts/0/functionCall/id", "(absent)", "GM-CALL-ID")


@pytest.mark.parametrize(
    ("target", "chunks", "raised"),
    [
        pytest.param(
            "langchain",
            [chunk({"text": "Hi"}, finishReason=5)],
            "AttributeError: 'int' object has no attribute 'upper'",
            marks=_needs_langchain,
        ),
        pytest.param(
            "langchain",
            [chunk(None, {"text": "Hi"}, finishReason="STOP")],
            "ValidationError: ",
            marks=_needs_langchain,
        ),
        pytest.param(
            "litellm",
            [{"candidates": {"x": 1}}, chunk({"text": "Hi"}, finishReason="STOP")],
            "MidStreamFallbackError: ",
            marks=_needs_litellm,
        ),
        pytest.param(
            "litellm",
            [chunk(None, {"text": "Hi"}, finishReason="STOP")],
            "MidStreamFallbackError: ",
            marks=_needs_litellm,
        ),
    ],
    ids=[
        "langchain-finish-number",
        "langchain-null-part",
        "litellm-candidates-object",
        "litellm-null-part",
    ],
)
def test_gm_rob_wrong_type_the_libraries_raise_on_values_of_the_wrong_type(
    target: str, chunks: list[JSON], raised: str
) -> None:
    fold = _langchain() if target == "langchain" else _litellm()
    assert _raises(fold, chunks).startswith(raised)
