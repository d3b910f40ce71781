"""The built-in Gemini target of litellm's Gemini provider (`litellm-gemini`), checked on the
projection it declares (`refold.run.projection`: litellm's own chat → Gemini transformation,
both folds reduced to the places compared): each defect the research names (gemini-fold.md
R12.5, R13) that the pinned version really has, and those found by drawing streams from
`refold.strategies.gemini`, pinned to the GM rule it breaks with a minimal stream (one test
per finding: the difference from the reference fold at a pointer that rule owns, or the
raise); and where litellm is right, agreement with the reference. `RULES_CHECKED` names the
rules each test checks.
"""

from __future__ import annotations

import importlib
import importlib.util

import pytest
from _gemini_sdk import (
    BLOCKED,
    CALL,
    HELLO,
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

from refold.reference import JSON
from refold.reference.gemini import fold as reference
from refold.reference.gemini import rules_at
from refold.run.projection import projection_of

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("litellm") is None, reason="install refold[litellm]"
)

__all__ = ["quiet_library_logs"]  # the autouse fixture, imported to apply here

VERSION = "litellm 1.110.2"

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_the_litellm_target_declares_its_dialect_projection_and_version": ("GM-CAND-INDEX",),
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
    "test_gm_rob_wrong_type_litellm_raises_on_values_of_the_wrong_type": (
        "GM-ROB-WRONG-TYPE",
        "GM-ROB-NULL-ENTRIES",
    ),
}


def _litellm() -> Fold:
    from refold.dialects.gemini.targets.litellm_gemini import fold

    return fold


def test_the_litellm_target_declares_its_dialect_projection_and_version() -> None:
    from refold.dialects.gemini.targets import SDK_TARGETS

    path = "refold.dialects.gemini.targets.litellm_gemini"
    assert SDK_TARGETS["litellm-gemini"] == f"{path}:refold_target"
    declared = importlib.import_module(path).refold_target
    assert declared["dialect"] == "gemini-generate-content"
    assert VERSION in declared["description"]
    assert projection_of(declared["projection"], origin="litellm-gemini") is not None
    assert not {"lifecycle", "sse", "citations", "safety"} & set(declared["features"])


def test_litellm_agrees_with_the_reference_on_a_plain_text_answer() -> None:
    assert found(_litellm(), HELLO) == {}


def test_gm_call_whole_litellm_raises_on_a_call_without_args() -> None:
    # R12.5: `_transform_parts` reads `functionCall["args"]` unconditionally; Vertex sends
    # an argument-less call without `args` (`google-stream-no-args-tool-call`)
    chunks: list[JSON] = [chunk({"functionCall": {"name": "read_theme"}}, finishReason="STOP")]
    raised = raises(_litellm(), chunks)
    assert raised.startswith("MidStreamFallbackError: ") and "'args'" in raised


def test_gm_call_streamed_litellm_raises_on_argument_fragments() -> None:
    raised = raises(_litellm(), STREAMED_CALL)
    assert raised.startswith("MidStreamFallbackError: ") and "'args'" in raised


def test_gm_usage_last_litellm_recomputes_the_total_and_adds_thoughts_to_candidates() -> None:
    # `total_tokens = prompt + completion`, and completion includes the thought tokens
    fold = _litellm()
    at(fold, USAGE_DOWN, "/usageMetadata/totalTokenCount", "177", "GM-USAGE-LAST")
    thinking: list[JSON] = [
        with_top(
            chunk({"text": "A"}, finishReason="STOP"),
            usageMetadata=usage(200, 2743, 3018, thoughtsTokenCount=75),
        )
    ]
    at(fold, thinking, "/usageMetadata/candidatesTokenCount", "2818", "GM-USAGE-LAST")


def test_gm_usage_last_litellm_invents_usage_for_a_stream_without_any() -> None:
    # stream_chunk_builder counts tokens itself when the stream sent no usage
    chunks: list[JSON] = [chunk({"text": "A"}, finishReason="STOP")]
    assert "usageMetadata" not in reference(chunks)
    differing = found(_litellm(), chunks)
    assert differing["/usageMetadata"].startswith(
        "at /usageMetadata: expected (absent), received {"
    )
    assert "GM-USAGE-LAST" in rules_at("/usageMetadata")


@pytest.mark.parametrize(
    ("reason", "received"),
    [("RECITATION", "SAFETY"), ("MALFORMED_FUNCTION_CALL", "STOP"), ("LANGUAGE", "SAFETY")],
)
def test_gm_finish_litellm_maps_finish_reasons_through_chat(reason: str, received: str) -> None:
    # the chat shape has four finish reasons; the Gemini reason is not kept verbatim
    chunks: list[JSON] = [chunk({"text": "A"}, finishReason=reason)]
    at(_litellm(), chunks, "/candidates/0/finishReason", f'"{received}"', "GM-FINISH")


def test_gm_cand_order_litellm_keeps_only_candidate_zero() -> None:
    fold = _litellm()
    assert fold(TWO_CANDIDATES)["candidates"][0]["content"]["parts"] == [{"text": "AC"}]
    at(fold, TWO_CANDIDATES, "/candidates/1", "(absent)", "GM-CAND-ORDER")


def test_gm_cand_none_litellm_invents_a_safety_candidate_for_a_blocked_prompt() -> None:
    differing = found(_litellm(), BLOCKED)
    assert differing["/candidates"].endswith(
        'received [{"content": {"parts": [{"text": ""}], "role": "model"}, '
        '"finishReason": "SAFETY"}]'
    )


def test_gm_thought_apart_litellm_drops_thoughts_code_signatures_and_ids() -> None:
    # R12.5: thoughts go to reasoning_content, code parts nowhere, signatures to
    # provider_specific_fields: the chat → Gemini transformation has no place for them
    fold = _litellm()
    thought: list[JSON] = [
        chunk({"text": "hmm", "thought": True}),
        chunk({"text": "answer"}, finishReason="STOP"),
    ]
    at(fold, thought, "/candidates/0/content/parts/0/thought", "(absent)", "GM-THOUGHT-APART")
    code: list[JSON] = [
        chunk({"executableCode": {"language": "PYTHON", "code": "1"}}, finishReason="STOP")
    ]
    at(fold, code, "/candidates/0/content/parts/0/executableCode", "(absent)", "GM-CODE")
    signed: list[JSON] = [
        chunk({"text": "A"}),
        chunk({"text": "", "thoughtSignature": "U0lHLTE="}, finishReason="STOP"),
    ]
    pointer = "/candidates/0/content/parts/0/thoughtSignature"
    at(fold, signed, pointer, "(absent)", "GM-SIGNATURE")
    call: list[JSON] = [chunk(CALL, finishReason="STOP")]
    at(fold, call, "/candidates/0/content/parts/0/functionCall/id", "(absent)", "GM-CALL-ID")


@pytest.mark.parametrize(
    "chunks",
    [
        [{"candidates": {"x": 1}}, chunk({"text": "Hi"}, finishReason="STOP")],
        [chunk(None, {"text": "Hi"}, finishReason="STOP")],
    ],
    ids=["candidates-object", "null-part"],
)
def test_gm_rob_wrong_type_litellm_raises_on_values_of_the_wrong_type(chunks: list[JSON]) -> None:
    # the provider's chunk parser reads the chunk without type checks
    assert raises(_litellm(), chunks).startswith("MidStreamFallbackError: ")
