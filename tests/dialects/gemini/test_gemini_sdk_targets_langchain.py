"""The built-in Gemini target of langchain-google-genai (`langchain-google-genai`), checked on
the projection it declares (`refold.run.projection`: both folds reduced to the places
compared): each defect the research names (gemini-fold.md R12.4, R13) that the pinned version
really has, and those found by drawing streams from `refold.strategies.gemini`, pinned to
the GM rule it breaks with a minimal stream (one test per finding: the difference from the
reference fold at a pointer that rule owns, or the raise); and where LangChain is right,
agreement with the reference. `RULES_CHECKED` names the rules each test checks.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

import pytest
from _gemini_sdk import (
    BLOCKED,
    CALL,
    STREAMED_CALL,
    TWO_CANDIDATES,
    USAGE_DOWN,
    Fold,
    at,
    found,
    quiet_library_logs,
    raises,
    usage,
    with_top,
)
from _gemini_streams import chunk
from hypothesis import HealthCheck, given, settings

from refold.reference import JSON, JSONObject
from refold.reference.gemini import rules_at
from refold.run.projection import projection_of
from refold.strategies.gemini import round_trips

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("langchain_google_genai") is None,
    reason="install refold[langchain-google-genai]",
)

__all__ = ["quiet_library_logs"]  # the autouse fixture, imported to apply here

VERSIONS = "langchain-google-genai 4.4.3, langchain-core 1.8.3, google-genai 2.34.0"

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_the_langchain_target_declares_its_dialect_projection_and_versions": ("GM-CAND-INDEX",),
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
    "test_gm_rob_wrong_type_langchain_raises_on_values_of_the_wrong_type": (
        "GM-ROB-WRONG-TYPE",
        "GM-ROB-NULL-ENTRIES",
    ),
}


def _langchain() -> Fold:
    from refold.dialects.gemini.targets.langchain_google_genai import fold

    return fold


def test_the_langchain_target_declares_its_dialect_projection_and_versions() -> None:
    from refold.dialects.gemini.targets import SDK_TARGETS

    path = "refold.dialects.gemini.targets.langchain_google_genai"
    assert SDK_TARGETS["langchain-google-genai"] == f"{path}:refold_target"
    declared = importlib.import_module(path).refold_target
    assert declared["dialect"] == "gemini-generate-content"
    assert VERSIONS in declared["description"]
    assert projection_of(declared["projection"], origin="langchain-google-genai") is not None
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


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_trips(features={"text"}, families={1}))
def test_langchain_agrees_with_the_reference_on_documented_text_streams(
    case: tuple[JSONObject, list[JSONObject]],
) -> None:
    _, chunks = case
    assert found(_langchain(), list(chunks)) == {}


def test_langchain_folds_a_continuation_checkpoint_as_one_call() -> None:
    # The target turns google-genai's automatic continuation off: the served stream is one
    # call, and `CONTINUATION` is kept verbatim (with it on, the SDK would ask again and the
    # offline server would answer with the same chunks: "AA")
    checkpoint: list[JSON] = [
        chunk({"text": "A"}, finishReason="CONTINUATION", continuationToken="VE9L")
    ]
    assert _langchain()(checkpoint)["candidates"][0]["finishReason"] == "CONTINUATION"
    assert found(_langchain(), checkpoint) == {}


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
    assert found(_langchain(), chunks) == {}


def test_gm_usage_last_langchain_keeps_the_higher_count_when_usage_goes_down() -> None:
    # R12.4: running totals turned into deltas floored at zero (`subtract_usage`), only input
    # tokens compensated, then summed back: the research's 1471 vs 1394
    at(_langchain(), USAGE_DOWN, "/usageMetadata/totalTokenCount", "1471", "GM-USAGE-LAST")
    at(_langchain(), USAGE_DOWN, "/usageMetadata/candidatesTokenCount", "244", "GM-USAGE-LAST")


def test_gm_usage_last_langchain_drops_an_all_zero_usage() -> None:
    # `_response_to_result` sets no usage_metadata when every count is 0
    chunks: list[JSON] = [
        with_top(chunk({"text": "A"}, finishReason="STOP"), usageMetadata=usage(0, 0, 0))
    ]
    at(_langchain(), chunks, "/usageMetadata", "(absent)", "GM-USAGE-LAST")


def test_gm_finish_langchain_concatenates_the_finish_reasons_of_two_candidates() -> None:
    # R12.4: `generations[0]` of each chunk, whatever its index, summed with merge_dicts:
    # candidate 1 is spliced into candidate 0 and the finish reasons concatenate
    fold = _langchain()
    at(fold, TWO_CANDIDATES, "/candidates/0/finishReason", '"STOPSTOP"', "GM-FINISH")
    at(fold, TWO_CANDIDATES, "/candidates/0/content/parts/0/text", '"ABC"', "GM-TEXT-JOIN")
    at(fold, TWO_CANDIDATES, "/candidates/1", "(absent)", "GM-CAND-ORDER")


def test_gm_safety_langchain_repeats_a_rating_resent_on_every_chunk() -> None:
    # R8, R12.4: Gemini resends the ratings on every chunk; merge_lists concatenates them
    rating = {"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"}
    chunks: list[JSON] = [
        chunk({"text": "A"}, safetyRatings=[rating]),
        chunk({"text": "B"}, safetyRatings=[rating], finishReason="STOP"),
    ]
    received = '{"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"}'
    at(_langchain(), chunks, "/candidates/0/safetyRatings/1", received, "GM-SAFETY")


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
    at(fold, chunks, pointer, '"<p/><p/>"', "GM-GROUNDING")
    at(fold, chunks, "/candidates/0/groundingMetadata/webSearchQueries/1", '"q"', "GM-GROUNDING")


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
    at(fold, chunks, "/candidates/0/content/parts/1", "(absent)", "GM-SIGNATURE")


def test_gm_call_id_langchain_drops_the_call_id() -> None:
    # `_parse_chat_history` sends `FunctionCall(name, args)` back: the API's id is lost
    chunks: list[JSON] = [chunk(CALL, finishReason="STOP")]
    at(
        _langchain(),
        chunks,
        "/candidates/0/content/parts/0/functionCall/id",
        "(absent)",
        "GM-CALL-ID",
    )


def test_gm_call_whole_langchain_moves_calls_after_the_text() -> None:
    # `_parse_chat_history` converts the content first, then appends every tool call
    chunks: list[JSON] = [chunk(CALL), chunk({"text": "done"}, finishReason="STOP")]
    fold = _langchain()
    assert fold(chunks)["candidates"][0]["content"]["parts"] == [
        {"text": "done"},
        {"functionCall": {"args": {"q": "x"}, "name": "lookup"}},
    ]
    received = '{"args": {"q": "x"}, "name": "lookup"}'
    at(fold, chunks, "/candidates/0/content/parts/1/functionCall", received, "GM-CALL-WHOLE")


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
    at(fold, STREAMED_CALL, pointer, "(absent)", "GM-CALL-STREAMED")


def test_gm_env_id_langchain_keeps_the_model_version_only_from_a_finish_chunk() -> None:
    # `model_name` is written only for a chunk with a finish reason; a stream cut before it
    # (or whose finish chunk omits modelVersion) has none
    chunks: list[JSON] = [with_top(chunk({"text": "A"}), modelVersion="gemini-2.5-flash")]
    at(_langchain(), chunks, "/modelVersion", "(absent)", "GM-ENV-ID")


def test_gm_env_id_langchain_concatenates_the_model_version_of_two_finish_chunks() -> None:
    # each chunk with a finish reason adds `model_name`; merge_dicts joins the strings
    chunks: list[JSON] = [
        with_top(chunk({"text": "A"}, index=0, finishReason="STOP"), modelVersion="m"),
        with_top(chunk({"text": "B"}, index=1, finishReason="STOP"), modelVersion="m"),
    ]
    at(_langchain(), chunks, "/modelVersion", '"mm"', "GM-ENV-ID")


def test_gm_prompt_feedback_langchain_drops_feedback_sent_beside_candidates() -> None:
    # `_response_to_result` puts `prompt_feedback` in llm_output, and in the message's
    # response_metadata only for a chunk without candidates
    rating = {"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"}
    chunks: list[JSON] = [
        with_top(chunk({"text": "A"}), promptFeedback={"safetyRatings": [rating]}),
        chunk({"text": "B"}, finishReason="STOP"),
    ]
    at(_langchain(), chunks, "/promptFeedback", "(absent)", "GM-PROMPT-FEEDBACK")


def test_gm_cand_none_langchain_answers_a_blocked_prompt_with_an_empty_text_part() -> None:
    # an empty AIMessage, which `_parse_chat_history` sends back as `[Part(text="")]`
    differing = found(_langchain(), BLOCKED)
    assert differing["/candidates"].endswith(
        'received [{"content": {"parts": [{"text": ""}], "role": "model"}}]'
    )
    assert "GM-CAND-NONE" in rules_at("/candidates")


def test_gm_life_error_langchain_raises_on_an_error_chunk() -> None:
    error = {"error": {"code": 429, "message": "slow", "status": "RESOURCE_EXHAUSTED"}}
    raised = raises(_langchain(), [chunk({"text": "Hel"}), error])
    assert raised.startswith("GoogleRateLimitError: ") and "429 RESOURCE_EXHAUSTED" in raised


@pytest.mark.parametrize(
    ("chunks", "raised"),
    [
        (
            [chunk({"text": "Hi"}, finishReason=5)],
            "AttributeError: 'int' object has no attribute 'upper'",
        ),
        ([chunk(None, {"text": "Hi"}, finishReason="STOP")], "ValidationError: "),
    ],
    ids=["finish-reason-number", "null-part"],
)
def test_gm_rob_wrong_type_langchain_raises_on_values_of_the_wrong_type(
    chunks: list[JSON], raised: str
) -> None:
    # google-genai's parse of each chunk, under LangChain
    assert raises(_langchain(), chunks).startswith(raised)
