"""The built-in Gemini target of google-genai (`google-genai`): its chat history turn, checked
on the projection it declares (candidates' `content`): each defect the research names for
google-genai 2.34.0 (gemini-fold.md R12.1, R13) that the installed version really has,
pinned to the GM rule it breaks with a minimal stream (one test per finding), what the SDK
does beside the judged fold (curated history, errors, its SSE reader), and where the SDK is
right, agreement with the reference fold. `RULES_CHECKED` names the rules each test checks.

google-genai is driven through `client.chats.create(...).send_message_stream(...)` over an
in-memory `httpx` transport (`refold.dialects.gemini.targets._wire`), then `get_history()`.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _gemini_sdk import at, found, quiet_library_logs
from _gemini_streams import chunk
from hypothesis import HealthCheck, given, settings

from refold.reference import JSON, JSONObject
from refold.reference.gemini import differences, rules_at
from refold.reference.gemini import fold as reference
from refold.strategies.gemini import round_trips

pytestmark = pytest.mark.skipif(
    # `google` first: find_spec of a submodule raises when its parent package is missing
    importlib.util.find_spec("google") is None or importlib.util.find_spec("google.genai") is None,
    reason="install refold[gemini]",
)

__all__ = ["quiet_library_logs"]  # the autouse fixture, imported to apply here

VERSION = "2.34.0"  # google-genai, the version the research read

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_the_target_declares_its_dialect_projection_and_version": ("GM-CAND-INDEX",),
    "test_importing_the_target_without_the_sdk_names_the_extra": ("GM-CAND-INDEX",),
    "test_the_reproducer_prints_what_the_target_folds": ("GM-TEXT-JOIN", "GM-SIGNATURE"),
    "test_a_continuation_checkpoint_is_one_call": ("GM-TEXT-JOIN",),
    "test_a_stream_of_whole_parts_is_recorded_as_the_reference_folds_it": (
        "GM-CALL-WHOLE",
        "GM-CALL-ID",
        "GM-CODE",
        "GM-ROLE",
    ),
    "test_the_history_turn_holds_every_part_of_a_single_candidate_stream": (
        "GM-TEXT-JOIN",
        "GM-THOUGHT-APART",
        "GM-CALL-WHOLE",
        "GM-CODE",
        "GM-INLINE",
    ),
    "test_gm_text_join_google_genai_keeps_one_text_part_per_chunk": ("GM-TEXT-JOIN",),
    "test_gm_text_empty_google_genai_keeps_the_empty_finish_part": ("GM-TEXT-EMPTY",),
    "test_gm_signature_google_genai_leaves_the_trailing_signature_apart": ("GM-SIGNATURE",),
    "test_signatures_and_inline_data_read_back_as_the_strings_received": (
        "GM-SIGNATURE",
        "GM-INLINE",
    ),
    "test_gm_cand_order_google_genai_keeps_only_candidate_zero_and_mixes_in_one": (
        "GM-CAND-ORDER",
        "GM-CAND-INDEX",
    ),
    "test_gm_call_streamed_google_genai_keeps_the_argument_fragments": ("GM-CALL-STREAMED",),
    "test_gm_unknown_keys_google_genai_drops_unknown_keys_of_parts_and_content": (
        "GM-UNKNOWN-KEYS",
        "GM-PART-OTHER",
        "GM-ROLE",
    ),
    "test_gm_cand_none_google_genai_records_an_empty_model_turn_for_a_blocked_prompt": (
        "GM-CAND-NONE",
    ),
    "test_gm_rob_wrong_type_google_genai_raises_on_values_of_the_wrong_type": (
        "GM-ROB-WRONG-TYPE",
        "GM-ROB-NULL-ENTRIES",
        "GM-PART-OTHER",
    ),
    "test_gm_life_after_finish_the_curated_history_drops_a_turn_with_trailing_usage": (
        "GM-LIFE-AFTER-FINISH",
    ),
    "test_gm_life_error_google_genai_raises_a_client_error_on_an_error_chunk": ("GM-LIFE-ERROR",),
    "test_gm_wire_sse_google_genai_splits_a_frame_at_a_unicode_line_separator": ("GM-WIRE-SSE",),
}

SIGNATURE = "77u/"  # standard base64 holding a `/`
"""A signature whose standard and URL-safe base64 spellings differ."""


def _fold(chunks: list[JSON]) -> JSONObject:
    from refold.dialects.gemini.targets.google_genai import fold

    return fold(chunks)


def _found(chunks: list[JSON]) -> dict[str, str]:
    from refold.dialects.gemini.targets.google_genai import fold

    return found(fold, chunks)


def _at(chunks: list[JSON], pointer: str, received: str, rule: str) -> None:
    from refold.dialects.gemini.targets.google_genai import fold

    at(fold, chunks, pointer, received, rule)


def _parts(chunks: list[JSON]) -> list[Any]:
    parts: list[Any] = _fold(chunks)["candidates"][0]["content"]["parts"]
    return parts


def test_the_target_declares_its_dialect_projection_and_version() -> None:
    from refold.dialects.gemini.targets import SDK_TARGETS
    from refold.dialects.gemini.targets.google_genai import refold_target

    assert SDK_TARGETS["google-genai"] == (
        "refold.dialects.gemini.targets.google_genai:refold_target"
    )
    assert refold_target["dialect"] == "gemini-generate-content"
    assert f"google-genai {VERSION}" in str(refold_target["description"])
    assert refold_target["projection"]["pointers"] == ["/candidates/*/content"]  # type: ignore[index]
    assert not {"lifecycle", "sse", "usage"} & set(refold_target["features"])  # type: ignore[arg-type]


def test_importing_the_target_without_the_sdk_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from refold.errors import UsageError

    for name in [
        m for m in sys.modules if m.startswith(("google.genai", "refold.dialects.gemini"))
    ]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "google.genai", None)
    with pytest.raises(UsageError, match=r"refold\[gemini\]"):
        importlib.import_module("refold.dialects.gemini.targets.google_genai")


def test_the_reproducer_prints_what_the_target_folds(tmp_path: Path) -> None:
    # The upstream report's program, without refold, shows the same unjoined turn
    from refold.dialects.gemini.targets.google_genai import REPRODUCER
    from refold.reports import stream_literal

    chunks: list[JSON] = [
        chunk({"text": "Hel"}),
        chunk({"text": "lo"}, {"text": "", "thoughtSignature": SIGNATURE}, finishReason="STOP"),
    ]
    program = tmp_path / "repro.py"
    program.write_text(REPRODUCER.replace("{stream}", stream_literal(chunks)), "utf-8")
    printed = subprocess.run(
        [sys.executable, str(program)], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(printed) == _fold(chunks)


# Where google-genai is right.


def test_a_stream_of_whole_parts_is_recorded_as_the_reference_folds_it() -> None:
    call = {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}, "id": "c1"}}
    code = {"executableCode": {"language": "PYTHON", "code": "print(1)"}}
    result = {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1\n"}}
    chunks: list[JSON] = [
        chunk({"text": "Let me look."}, index=0),
        chunk(call, code, index=0),
        chunk(result, index=0, finishReason="STOP"),
    ]
    assert _found(chunks) == {}


def test_a_continuation_checkpoint_is_one_call() -> None:
    # The target turns automatic continuation off: with it on, `CONTINUATION` and a
    # `continuationToken` make the SDK send a second request, which the offline server
    # would answer with the same chunks
    checkpoint: list[JSON] = [
        chunk({"text": "A"}, finishReason="CONTINUATION", continuationToken="VE9L")
    ]
    assert _parts(checkpoint) == [{"text": "A"}]
    assert _found(checkpoint) == {}


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_trips(features={"text", "thinking", "tool_calls", "code_execution", "media"}))
def test_the_history_turn_holds_every_part_of_a_single_candidate_stream(
    case: tuple[JSONObject, list[JSONObject]],
) -> None:
    # The research's "lossless but unfolded" (R13: 27 of 29 probes): folding the recorded
    # turn as one chunk gives the response's content back.
    response, chunks = case
    turn = _fold(list(chunks))["candidates"][0]
    refolded = reference([{"candidates": [turn]}])["candidates"][0].get("content")
    expected = response["candidates"][0].get("content")
    assert differences(expected, refolded) == []


# google-genai 2.34.0: defects, one test per finding.


def test_gm_text_join_google_genai_keeps_one_text_part_per_chunk() -> None:
    # R12.1: the turn is one Content per chunk; text deltas are never joined
    chunks: list[JSON] = [chunk({"text": "Hel"}), chunk({"text": "lo"}, finishReason="STOP")]
    assert reference(chunks)["candidates"][0]["content"]["parts"] == [{"text": "Hello"}]
    assert _parts(chunks) == [{"text": "Hel"}, {"text": "lo"}]
    _at(chunks, "/candidates/0/content/parts/0/text", '"Hel"', "GM-TEXT-JOIN")


def test_gm_text_empty_google_genai_keeps_the_empty_finish_part() -> None:
    # R4: the finish chunk's `{"text": ""}` carries nothing, and is kept as a part
    chunks: list[JSON] = [chunk({"text": "Hi"}), chunk({"text": ""}, finishReason="STOP")]
    assert _parts(chunks) == [{"text": "Hi"}, {"text": ""}]
    _at(chunks, "/candidates/0/content/parts/1", '{"text": ""}', "GM-TEXT-EMPTY")


def test_gm_signature_google_genai_leaves_the_trailing_signature_apart() -> None:
    # R5 (Gemini 3 text answers): the signature comes alone on the finish chunk and belongs
    # on the answer's one text part; the history keeps it as a part of its own
    signed = {"text": "", "thoughtSignature": "U0lHLTE="}
    chunks: list[JSON] = [chunk({"text": "Hi"}), chunk(signed, finishReason="STOP")]
    assert reference(chunks)["candidates"][0]["content"]["parts"] == [
        {"text": "Hi", "thoughtSignature": "U0lHLTE="}
    ]
    assert _parts(chunks) == [{"text": "Hi"}, signed]
    _at(chunks, "/candidates/0/content/parts/0/thoughtSignature", "(absent)", "GM-SIGNATURE")


def test_signatures_and_inline_data_read_back_as_the_strings_received() -> None:
    # The SDK holds both as bytes and pydantic writes them URL-safe (`77u_`); the target
    # writes them in the API's standard alphabet, so the same bytes are the same string
    # (the alphabet is the mapping's, not a defect of the SDK's fold: GM-SIGNATURE holds).
    image = {"inlineData": {"mimeType": "image/png", "data": "+/8="}}
    chunks: list[JSON] = [
        chunk({"text": "Hi", "thoughtSignature": SIGNATURE}, image, finishReason="STOP")
    ]
    assert _parts(chunks) == [{"text": "Hi", "thoughtSignature": SIGNATURE}, image]
    assert _found(chunks) == {}


def test_gm_cand_order_google_genai_keeps_only_candidate_zero_and_mixes_in_one() -> None:
    # R12.1: `chunk.candidates[0].content` of every chunk, whatever its index
    chunks: list[JSON] = [
        chunk({"text": "A"}, index=0),
        chunk({"text": "B"}, index=1),
        chunk({"text": "C"}, index=0, finishReason="STOP"),
        {"candidates": [{"index": 1, "finishReason": "STOP"}]},
    ]
    assert _parts(chunks) == [{"text": "A"}, {"text": "B"}, {"text": "C"}]
    found = _found(chunks)
    assert "/candidates/1" in found and found["/candidates/1"].endswith("received (absent)")
    assert "GM-CAND-ORDER" in rules_at("/candidates/1")
    _at(chunks, "/candidates/0/content/parts/1", '{"text": "B"}', "GM-CAND-INDEX")


def test_gm_call_streamed_google_genai_keeps_the_argument_fragments() -> None:
    # R6 (Vertex streamFunctionCallArguments): the fragments stay as sent, one part each
    chunks: list[JSON] = [
        chunk({"functionCall": {"name": "getWeather", "willContinue": True}}),
        chunk({"functionCall": {"partialArgs": [_piece("Bos", more=True)], "willContinue": True}}),
        chunk({"functionCall": {"partialArgs": [_piece("ton")], "willContinue": True}}),
        chunk({"functionCall": {}}, finishReason="STOP"),
    ]
    assert reference(chunks)["candidates"][0]["content"]["parts"] == [
        {"functionCall": {"name": "getWeather", "args": {"location": "Boston"}}}
    ]
    assert len(_parts(chunks)) == 4
    assert _parts(chunks)[0] == {"functionCall": {"name": "getWeather", "willContinue": True}}
    _at(chunks, "/candidates/0/content/parts/1", _dumps(_parts(chunks)[1]), "GM-CALL-STREAMED")


def _piece(text: str, *, more: bool = False) -> JSONObject:
    piece: JSONObject = {"jsonPath": "$.location", "stringValue": text}
    if more:
        piece["willContinue"] = True
    return piece


def _dumps(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False)


def test_gm_unknown_keys_google_genai_drops_unknown_keys_of_parts_and_content() -> None:
    # R11, R12.1: the pydantic models drop keys they do not know; a part of an unknown kind
    # becomes `{}`
    chunks: list[JSON] = [
        {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"futurePart": {"x": 1}}], "tag": 1},
                    "finishReason": "STOP",
                }
            ]
        }
    ]
    assert _parts(chunks) == [{}]
    _at(chunks, "/candidates/0/content/parts/0/futurePart", "(absent)", "GM-UNKNOWN-KEYS")
    _at(chunks, "/candidates/0/content/tag", "(absent)", "GM-UNKNOWN-KEYS")


def test_gm_cand_none_google_genai_records_an_empty_model_turn_for_a_blocked_prompt() -> None:
    # R10: a blocked prompt streams no candidate; `record_history` still adds
    # `Content(role="model", parts=[])`
    chunks: list[JSON] = [{"promptFeedback": {"blockReason": "SAFETY"}, "modelVersion": "m"}]
    assert "candidates" not in reference(chunks)
    assert _fold(chunks) == {"candidates": [{"content": {"role": "model", "parts": []}}]}
    _at(chunks, "/candidates", '[{"content": {"role": "model"}}]', "GM-CAND-NONE")


@pytest.mark.parametrize(
    ("chunks", "raised"),
    [
        ([chunk({"text": "Hi"}, finishReason=5)], "AttributeError"),
        ([chunk(None, {"text": "Hi"}, finishReason="STOP")], "ValidationError"),
        ([chunk({"text": "Hi", "partMetadata": 2}, finishReason="STOP")], "ValidationError"),
        ([chunk({"text": "Hi"}, finishReason="STOP"), {"usageMetadata": [1]}], "ValidationError"),
        ([{"candidates": [5]}, chunk({"text": "Hi"}, finishReason="STOP")], "TypeError"),
    ],
    ids=[
        "finish-reason-number",
        "null-part",
        "part-key-of-another-type",
        "usage-list",
        "candidate-entry-number",
    ],
)
def test_gm_rob_wrong_type_google_genai_raises_on_values_of_the_wrong_type(
    chunks: list[JSON], raised: str
) -> None:
    # The reference folds every JSON object (GM-ROB-WRONG-TYPE, GM-ROB-NULL-ENTRIES, a part
    # kept as sent: GM-PART-OTHER); the SDK's parse raises before the history sees the chunk
    reference(chunks)
    with pytest.raises(Exception) as caught:  # noqa: PT011 (which SDK error is the finding)
        _fold(chunks)
    assert type(caught.value).__name__ == raised


def _chat_after(chunks: list[JSON]) -> Any:
    from refold.dialects.gemini.targets._wire import offline_client, serving
    from refold.dialects.gemini.targets.google_genai import _CONFIG, MODEL

    chat = offline_client(serving(chunks)).chats.create(model=MODEL, config=_CONFIG)
    for _ in chat.send_message_stream("refold"):
        pass
    return chat


def test_gm_life_after_finish_the_curated_history_drops_a_turn_with_trailing_usage() -> None:
    # R7, R12.1: a usage-only chunk after the finish chunk has no candidates, so
    # `_validate_response` marks the turn invalid and the history sent next leaves it out
    answer = chunk({"text": "Hi"}, finishReason="STOP")
    usage = {"usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 4}}
    assert len(_chat_after([answer]).get_history(curated=True)) == 2
    chat = _chat_after([answer, usage])
    assert chat.get_history(curated=True) == []
    assert len(chat.get_history()) == 2  # the comprehensive history, which the target reads


def test_gm_life_error_google_genai_raises_a_client_error_on_an_error_chunk() -> None:
    # R1: an `{"error": …}` chunk mid-stream raises `ClientError`; the partial answer read
    # so far reaches no history
    from google.genai.errors import ClientError

    error = {"error": {"code": 429, "message": "slow", "status": "RESOURCE_EXHAUSTED"}}
    chunks: list[JSON] = [chunk({"text": "Hel"}), error]
    assert reference(chunks)["candidates"][0]["content"]["parts"] == [{"text": "Hel"}]
    with pytest.raises(ClientError, match="429 RESOURCE_EXHAUSTED"):
        _fold(chunks)


def test_gm_wire_sse_google_genai_splits_a_frame_at_a_unicode_line_separator() -> None:
    # `_iter_response_stream` reads `iter_lines()`, which splits at U+2028 (and U+0085, …)
    # as well as at CR/LF: raw UTF-8 JSON holding one is cut mid-frame. The targets' folds
    # serve ASCII-escaped JSON (`_wire.sse_body`) so that this wire defect is not charged to
    # a fold rule.
    import httpx
    from google.genai.errors import UnknownApiResponseError

    from refold.dialects.gemini.targets._wire import offline_client, sse_body

    chunks: list[JSON] = [chunk({"text": "a\u2028b"}, finishReason="STOP")]
    raw = sse_body(chunks, ascii_only=False)
    assert "\u2028".encode() in raw and b"\\u2028" in sse_body(chunks)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=raw, request=request)

    client = offline_client(answer)
    with pytest.raises(UnknownApiResponseError, match="Failed to parse response as JSON"):
        list(client.models.generate_content_stream(model="m", contents="refold"))
    assert _parts(chunks) == [{"text": "a\u2028b"}]
