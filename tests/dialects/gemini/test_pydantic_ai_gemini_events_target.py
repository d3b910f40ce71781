"""The `pydantic-ai-gemini-events` target (pydantic-ai's `GoogleModel`) on hand-written
Gemini streams (gemini-fold.md, "Provider-neutral events").

Each stream is fed to the adapter chunk by chunk, in process, over the offline transport,
and its output is judged by `refold.reference.events.check_events`. A finding is pinned by
the exact rule ids the checker charges and the pydantic-ai version it was seen with, as
test_pydantic_ai_events_target.py does for the other models: a new version that fixes (or
breaks) something fails here and is re-pinned on purpose. `PERSIST-RESPONSE-ID` is charged
on every completed stream (the history keeps `provider_response_id`), so the event-only
findings are checked without the persisted history and the persistence findings with it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("google.genai", reason="install refold[pydantic-ai]")

from pydantic import ValidationError

from refold.dialects.gemini.targets import pydantic_ai_events as pydantic_ai_gemini
from refold.reference.events import check_events, normalize
from refold.targets import BUILTIN_TARGETS
from refold.targets.sdk.pydantic_ai_events import library_version

VERSION = "2.68.0"
GEMINI = "gemini-generate-content"
RESPONSE_ID = "gemini-response-pyd"
USAGE = {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}
Frames = list[Any]


class Run:
    """One stream through the adapter: the events of each chunk, the end, the history."""

    def __init__(self, frames: Frames) -> None:
        adapter = pydantic_ai_gemini.PydanticAIGeminiEvents()
        adapter.begin(GEMINI)
        self.frames = frames
        self.per_frame = [adapter.frame(frame) for frame in frames]
        end = adapter.end()
        self.at_end: list[Any] = end.pop("events")
        self.outcome = end
        self.persisted = adapter.persisted()

    @property
    def events(self) -> list[Any]:
        return [event for events in self.per_frame for event in events] + self.at_end

    @property
    def turn(self) -> dict[str, Any]:
        return next(e["turn"] for e in self.events if e["type"] == "Completed")  # type: ignore[no-any-return]

    def rules(self, *, persisted: bool = False, canaries: tuple[str, ...] = ()) -> set[str]:
        found = check_events(
            GEMINI,
            self.frames,
            self.events,
            self.outcome,
            self.persisted if persisted else None,
            canaries=list(canaries),
            provider="pydantic-ai",
        )
        return {violation.rule for violation in found}


def finding(frames: Frames, **options: Any) -> set[str]:
    """The rules pydantic-ai breaks on `frames`, asserting the version they were seen with."""
    assert library_version() == VERSION, "re-pin the findings for the new pydantic-ai"
    return Run(frames).rules(**options)


def chunk(
    *parts: Any, finish: str | None = None, usage: Any = None, **envelope: Any
) -> dict[str, Any]:
    """A Gemini API chunk whose candidate 0 carries `parts`."""
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish is not None:
        candidate["finishReason"] = finish
    found: dict[str, Any] = {
        "candidates": [candidate],
        "modelVersion": "gemini-2.5-flash",
        "responseId": RESPONSE_ID,
        **envelope,
    }
    if usage is not None:
        found["usageMetadata"] = usage
    return found


def call(name: str, args: Any = None, call_id: str | None = None, **more: Any) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name, **more}
    if args is not None:
        function["args"] = args
    if call_id is not None:
        function["id"] = call_id
    return {"functionCall": function}


TEXT = [chunk({"text": "Hel"}), chunk({"text": "lo"}, finish="STOP", usage=USAGE)]
CALL = [chunk(call("get_weather", {"city": "Paris"}, "g1bmv6il"), finish="STOP", usage=USAGE)]
PIECE = {"jsonPath": "$.city", "stringValue": "Bos", "willContinue": True}
STREAMED = [
    chunk(call("get_weather", None, "c1", willContinue=True)),
    chunk({"functionCall": {"partialArgs": [PIECE], "willContinue": True}}),
    chunk({"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "ton"}]}}),
    chunk(finish="STOP", usage=USAGE),
]


# --- the declaration and the chunk-by-chunk feeding -----------------------------------


def test_the_target_is_a_built_in_events_target_naming_its_version() -> None:
    target = pydantic_ai_gemini.refold_target
    assert (
        BUILTIN_TARGETS["pydantic-ai-gemini-events"]
        == "refold.dialects.gemini.targets.pydantic_ai_events:refold_target"
    )
    assert target["dialect"] == "provider-events"
    assert target["accepts"] == [GEMINI]
    assert target["provider"] == "pydantic-ai"
    assert f"pydantic-ai {VERSION}" in str(target["description"])


def test_every_event_of_a_chunk_carries_that_chunk_no_look_ahead() -> None:
    run = Run([*CALL, {"usageMetadata": USAGE}])
    for frame, events in zip(run.frames, run.per_frame, strict=True):
        assert events, f"no event for {frame!r}"
        for event in events:
            assert event.get("opaque", event.get("payload", frame)) is frame


def test_the_adapter_refuses_a_dialect_it_does_not_accept() -> None:
    with pytest.raises(ValueError, match="openai-chat"):
        pydantic_ai_gemini.PydanticAIGeminiEvents().begin("openai-chat")


def test_a_chunk_the_library_makes_nothing_of_is_one_opaque_named_message() -> None:
    # EV-OPAQUE-FALLBACK, EV-OPAQUE-TYPE: Gemini sends no event names
    thinking = chunk({"text": "hmm", "thought": True}, type="not-an-event-name")
    run = Run([thinking, *TEXT])
    assert run.per_frame[0] == [{"type": "Opaque", "event_type": "message", "payload": thinking}]


# --- passing cases ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "frames",
    [
        TEXT,
        [chunk({"text": "hmm", "thought": True}), *TEXT],  # EV-REASONING-OPAQUE
        [chunk({"text": "A"}), chunk({"text": "", "thoughtSignature": "c2ln"}, finish="STOP")],
        [chunk({"text": "A"}, finish="MAX_TOKENS", usage=USAGE)],  # EV-STOP-MAP
        [chunk({"text": "A"}, finish="STOP"), {"usageMetadata": USAGE}],  # trailing usage
        [
            chunk({"executableCode": {"language": "PYTHON", "code": "1"}}),
            chunk({"codeExecutionResult": {"outcome": "OUTCOME_OK"}}, {"text": "A"}, finish="STOP"),
        ],
    ],
    ids=["text", "thought", "signature", "max tokens", "trailing usage", "code"],
)
def test_ev_rules_hold_for_text_thoughts_signatures_and_code(frames: Frames) -> None:
    if not any("usageMetadata" in frame for frame in frames):
        frames = [*frames, {"usageMetadata": USAGE}]
    assert finding(frames) == set()


def test_usage_is_normalised_as_the_reference_does() -> None:
    # the spec section's usage decision: disjoint buckets added; pydantic-ai agrees
    usage = {
        "promptTokenCount": 3,
        "toolUsePromptTokenCount": 4,
        "cachedContentTokenCount": 1,
        "candidatesTokenCount": 2,
        "thoughtsTokenCount": 5,
    }
    frames = [chunk({"text": "A"}, finish="STOP", usage=usage)]
    assert finding(frames) == set()
    assert Run(frames).turn["usage"] == normalize(GEMINI, frames)["events"][-1]["turn"]["usage"]


def test_ev_usage_monotone_a_fall_the_chunks_report_is_theirs() -> None:
    # GMD-USAGE-DOWN: thoughtsTokenCount 244 -> 167
    frames = [
        chunk({"text": "A"}, usage={"candidatesTokenCount": 5, "thoughtsTokenCount": 244}),
        chunk(
            {"text": "B"},
            finish="STOP",
            usage={"candidatesTokenCount": 6, "thoughtsTokenCount": 167},
        ),
    ]
    assert finding(frames) == set()


def test_a_blocked_prompt_completes_as_a_content_filter() -> None:
    frame = {
        "promptFeedback": {"blockReason": "SAFETY"},
        "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8},
        "modelVersion": "gemini-2.5-flash",
        "responseId": RESPONSE_ID,
    }
    run = Run([frame])
    assert run.turn["stop_reason"] == "content_filter"
    assert finding([frame]) == set()


def test_vertex_chunks_without_index_and_with_traffic_type_usage_pass() -> None:
    first = chunk({"text": "A"}, usage={"trafficType": "ON_DEMAND"})
    del first["candidates"][0]["index"]
    last = chunk({"text": "B"}, finish="STOP", usage=USAGE)
    del last["candidates"][0]["index"]
    assert finding([first, last]) == set()


def test_ev_error_frame_an_error_chunk_ends_the_stream_as_a_provider_error() -> None:
    error = {"error": {"code": 500, "message": "internal", "status": "INTERNAL"}}
    run = Run([chunk({"text": "A"}), error, chunk({"text": "B"}, finish="STOP")])
    assert run.outcome["error"]["kind"] == "provider_error"
    assert run.rules(persisted=True) == set()
    assert [message["kind"] for message in run.persisted] == ["request"]


def test_ev_truncated_an_empty_body_is_a_truncated_stream() -> None:
    run = Run([])
    assert run.outcome["error"]["kind"] == "truncated" and run.events == []
    assert finding([]) == set()


def test_persist_canary_a_canary_in_an_unknown_key_is_not_persisted() -> None:
    frames = [chunk({"text": "A"}, finish="STOP", usage=USAGE, x_refold_trace="CANARY-GM-TOP")]
    assert "PERSIST-CANARY" not in finding(frames, persisted=True, canaries=("CANARY-GM-TOP",))
    assert "CANARY-GM-TOP" not in json.dumps(Run(frames).persisted)


# --- findings: persistence -------------------------------------------------------------


def test_persist_response_id_the_history_keeps_provider_response_id() -> None:
    assert finding(TEXT, persisted=True) == {"PERSIST-RESPONSE-ID"}
    assert Run(TEXT).persisted[-1]["provider_response_id"] == RESPONSE_ID


# --- findings: events ------------------------------------------------------------------


def test_ev_usage_unreported_a_turn_without_usage_reads_zeros() -> None:
    frames = [chunk({"text": "A"}, finish="STOP")]
    assert finding(frames) == {"EV-USAGE-UNREPORTED"}
    assert set(Run(frames).turn["usage"].values()) == {0}


def test_ev_stop_tool_a_stop_with_a_call_stays_end_turn() -> None:
    assert finding(CALL) == {"EV-STOP-TOOL"}
    assert Run(CALL).turn["stop_reason"] == "end_turn"


def test_ev_fold_agrees_a_call_without_an_id_gets_a_new_random_id_each_run() -> None:
    # Vertex v1 sends no id: pydantic-ai makes one up per run (`pyd_ai_<uuid>`), where the
    # spec section's positional id (`gemini-call-0`) is the same for the same stream
    # (EV-DETERMINISM); the charge is EV-FOLD-AGREES, against the positional id
    frames = [chunk(call("get_weather", {"city": "Paris"}), finish="STOP", usage=USAGE)]
    assert finding(frames) == {"EV-FOLD-AGREES", "EV-STOP-TOOL"}
    ids = [Run(frames).turn["tool_calls"][0]["id"] for _ in range(2)]
    assert ids[0] != ids[1] and all(i.startswith("pyd_ai_") for i in ids)


def test_ev_fold_agrees_vertex_streamed_arguments_are_dropped() -> None:
    # GM-CALL-STREAMED, GM-CALL-PARTIAL-ARGS: the pieces never reach the call, which
    # completes with `{}` (its fragments are Opaque)
    run = Run(STREAMED)
    assert run.turn["tool_calls"] == [{"id": "c1", "name": "get_weather", "arguments": {}}]
    assert normalize(GEMINI, STREAMED)["events"][-1]["turn"]["tool_calls"][0]["arguments"] == {
        "city": "Boston"
    }
    assert finding(STREAMED) == {"EV-FOLD-AGREES", "EV-STOP-TOOL"}


def test_ev_fold_agrees_the_first_candidate_entry_is_read_whatever_its_index() -> None:
    # GM-CAND-INDEX: pydantic-ai reads `candidates[0]`, here candidate 1
    frame = chunk({"text": "mine"}, finish="STOP", usage=USAGE)
    other = {"content": {"role": "model", "parts": [{"text": "other"}]}, "index": 1}
    frame["candidates"].insert(0, {**other, "finishReason": "STOP"})
    assert Run([frame]).turn["output_text"] == "other"
    assert finding([frame]) == {"EV-FOLD-AGREES"}


def test_ev_truncated_a_stream_cut_before_its_finish_reason_completes() -> None:
    frames = [chunk({"text": "A"}, usage=USAGE)]
    run = Run(frames)
    assert (run.outcome, run.turn["stop_reason"]) == ({"outcome": "completed"}, "other")
    assert finding(frames) == {"EV-TRUNCATED"}


def test_ev_ids_single_use_two_calls_sharing_an_id_both_complete() -> None:
    frames = [chunk(call("f", None, "c1"), call("g", None, "c1"), finish="STOP", usage=USAGE)]
    assert finding(frames) == {"EV-CALL-IDENTITY", "EV-IDS-SINGLE-USE", "EV-TURN-CALLS"}


def test_ev_turn_fields_the_model_is_the_first_chunks() -> None:
    # GM-ENV-ID takes the last non-blank modelVersion (every capture repeats it, so only a
    # synthetic stream shows the difference); pydantic-ai keeps the first chunk's, or the
    # requested model's name when the first chunk has none
    changed = [chunk({"text": "A"}), chunk({"text": "B"}, finish="STOP", modelVersion="gemini-3")]
    first = chunk({"text": "A"})
    del first["modelVersion"]
    late = [first, chunk({"text": "B"}, finish="STOP", usage=USAGE)]
    assert Run(changed).turn["model"] == "gemini-2.5-flash"
    assert Run(late).turn["model"] == "refold-offline"
    assert finding([*changed, {"usageMetadata": USAGE}]) == {"EV-TURN-FIELDS"}
    assert finding(late) == {"EV-TURN-FIELDS"}


def test_ev_error_frame_a_changed_response_id_ends_the_stream_as_a_provider_error() -> None:
    # google-genai's continuation: a new responseId is a resumed request, and output no
    # continuation token covers makes pydantic-ai raise ModelAPIError (a synthetic
    # stream: every capture repeats one id, GM-ENV-ID)
    frames = [chunk({"text": "A"}), chunk({"text": "B"}, finish="STOP", responseId="other-id")]
    run = Run(frames)
    assert run.outcome["error"]["kind"] == "provider_error"
    assert finding(frames) == {"EV-ERROR-FRAME"}


@pytest.mark.parametrize(
    ("frame", "error", "match"),
    [
        (chunk(None, {"text": "A"}, finish="STOP"), ValidationError, "parts.0"),
        (
            {"candidates": [{"content": {"parts": [{"text": "A"}]}, "finishReason": 5}]},
            AttributeError,
            "upper",
        ),
        ({"candidates": {"index": 0}}, TypeError, "string indices"),
        (
            chunk({"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": ""}}),
            AssertionError,
            None,
        ),
    ],
    ids=["null part", "finish reason a number", "candidates an object", "result before code"],
)
def test_ev_unknown_a_chunk_pydantic_ai_cannot_read_crashes_it(
    frame: dict[str, Any], error: type[Exception], match: str | None
) -> None:
    # GM-ROB-NULL-ENTRIES, GM-ROB-WRONG-TYPE: google-genai's parsing of the chunk raises
    # (its model validation; its mldev converter on a `candidates` object); a
    # codeExecutionResult with no executableCode before it (GM-CODE keeps it as sent) fails
    # an assertion in pydantic-ai's mapping. pydantic-ai lets each through (the harness
    # charges the crash: EV-OPAQUE-FALLBACK, EV-FRAME-COVER in the report)
    adapter = pydantic_ai_gemini.PydanticAIGeminiEvents()
    adapter.begin(GEMINI)
    assert library_version() == VERSION
    with pytest.raises(error, match=match):
        adapter.frame(frame)
