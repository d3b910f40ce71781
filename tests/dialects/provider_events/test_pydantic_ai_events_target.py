"""The `pydantic-ai-events` target on hand-written streams of both dialects.

Each stream is fed to the adapter frame by frame, in process, and its output is judged by
`refold.reference.events.check_events`. A finding is pinned by the exact rule ids the
checker charges and the pydantic-ai version it was seen with: a new version that fixes
(or breaks) something fails here and is re-pinned on purpose. `PERSIST-RESPONSE-ID` is
charged on every completed stream (pydantic-ai keeps `provider_response_id` in its
history), so the event-only findings are checked without the persisted history and the
persistence findings with it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason="install refold[pydantic-ai]")

from refold.dialects.provider_events.targets import pydantic_ai as events_pydantic_ai
from refold.reference.events import check_events
from refold.targets import BUILTIN_TARGETS
from refold.targets.sdk.pydantic_ai_events import library_version

VERSION = "2.68.0"
CHAT, ANTHROPIC = "openai-chat", "anthropic-messages"
DONE = "[DONE]"
Frames = list[Any]


class Run:
    """One stream through the adapter: the events of each frame, the end, the history."""

    def __init__(self, dialect: str, frames: Frames) -> None:
        adapter = events_pydantic_ai.PydanticAIEvents()
        adapter.begin(dialect)
        self.dialect, self.frames = dialect, frames
        self.per_frame = [adapter.frame(frame) for frame in frames]
        end = adapter.end()
        self.at_end: list[Any] = end.pop("events")
        self.outcome = end
        self.persisted = adapter.persisted()

    @property
    def events(self) -> list[Any]:
        return [event for events in self.per_frame for event in events] + self.at_end

    def rules(self, *, persisted: bool = False, canaries: tuple[str, ...] = ()) -> set[str]:
        found = check_events(
            self.dialect,
            self.frames,
            self.events,
            self.outcome,
            self.persisted if persisted else None,
            canaries=list(canaries),
            provider="pydantic-ai",
        )
        return {violation.rule for violation in found}


def finding(dialect: str, frames: Frames, **options: Any) -> set[str]:
    """The rules pydantic-ai breaks on `frames`, asserting the version they were seen with."""
    assert library_version() == VERSION, "re-pin the findings for the new pydantic-ai"
    return Run(dialect, frames).rules(**options)


# --- Chat Completions frames --------------------------------------------------------


def chunk(
    delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any
) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": 0, "delta": delta or {}}
    if finish:
        choice["finish_reason"] = finish
    return {
        "id": "chatcmpl-pyd",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-refold",
        "choices": [choice],
        **extra,
    }


def call(index: int, arguments: str, **head: Any) -> dict[str, Any]:
    fragment: dict[str, Any] = {"index": index, "function": {"arguments": arguments}}
    if head:
        fragment.update(id=head["id"], type="function")
        fragment["function"]["name"] = head["name"]
    return chunk({"tool_calls": [fragment]})


USAGE = {
    "id": "chatcmpl-pyd",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "gpt-refold",
    "choices": [],
    "usage": {"prompt_tokens": 3, "completion_tokens": 5, "total_tokens": 8},
}
CHAT_TEXT = [
    chunk({"role": "assistant", "content": ""}, x_refold="CANARY-CHAT-TOP"),
    chunk({"content": "Hel", "x_refold": "CANARY-CHAT-DELTA"}),
    chunk({"content": "lo"}),
    chunk(finish="stop"),
    USAGE,
    DONE,
]
CHAT_CALL = [
    chunk({"role": "assistant"}),
    call(0, "", id="call_w1", name="get_weather"),
    call(0, '{"ci'),
    call(0, 'ty": "Paris"}'),
    chunk(finish="tool_calls"),
    USAGE,
    DONE,
]
CHAT_ERROR = [
    *CHAT_CALL[:3],
    {"error": {"message": "overloaded", "type": "server_error"}},
    *CHAT_CALL[3:],
]


# --- Anthropic Messages frames -------------------------------------------------------


def start(**message: Any) -> dict[str, Any]:
    return {
        "type": "message_start",
        "message": {
            "id": "msg_pyd",
            "type": "message",
            "role": "assistant",
            "model": "claude-refold",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 10,
                "output_tokens": 1,
                "cache_read_input_tokens": 4,
                "cache_creation_input_tokens": 2,
            },
            **message,
        },
    }


def block(index: int, content: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": content}


def delta(index: int, **body: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": body}


def stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def message_delta(reason: str, **body: Any) -> dict[str, Any]:
    return {
        "type": "message_delta",
        "usage": {"output_tokens": 12},
        "delta": {"stop_reason": reason, "stop_sequence": None, **body},
    }


MESSAGE_STOP = {"type": "message_stop"}
TOOL = {"type": "tool_use", "id": "toolu_w1", "name": "get_weather", "input": {}}
ANTHROPIC_STREAM = [
    start(x_refold="CANARY-ANT-MESSAGE"),
    block(0, {"type": "text", "text": ""}),
    {"type": "ping"},
    delta(0, type="text_delta", text="Hel"),
    {**delta(0, type="text_delta", text="lo"), "x_refold": "CANARY-ANT-DELTA"},
    stop(0),
    block(1, TOOL),
    delta(1, type="input_json_delta", partial_json=""),
    delta(1, type="input_json_delta", partial_json='{"ci'),
    delta(1, type="input_json_delta", partial_json='ty": "Paris"}'),
    stop(1),
    message_delta("tool_use"),
    MESSAGE_STOP,
]
ANTHROPIC_TEXT = [
    start(),
    block(0, {"type": "text", "text": ""}),
    delta(0, type="text_delta", text="Hi"),
    stop(0),
]
ANTHROPIC_ERROR = [
    *ANTHROPIC_STREAM[:4],
    {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}},
    *ANTHROPIC_STREAM[4:],
]


# --- the declaration and the frame-by-frame feeding -----------------------------------


def test_the_target_is_a_built_in_events_target_naming_its_version() -> None:
    target = events_pydantic_ai.refold_target
    assert (
        BUILTIN_TARGETS["pydantic-ai-events"]
        == "refold.dialects.provider_events.targets.pydantic_ai:refold_target"
    )
    assert target["dialect"] == "provider-events"
    assert target["accepts"] == [CHAT, "openai-responses", ANTHROPIC]
    assert target["provider"] == "pydantic-ai"
    assert f"pydantic-ai {VERSION}" in str(target["description"])


@pytest.mark.parametrize(("dialect", "frames"), [(CHAT, CHAT_CALL), (ANTHROPIC, ANTHROPIC_STREAM)])
def test_every_event_of_a_frame_carries_that_frame_no_look_ahead(
    dialect: str, frames: Frames
) -> None:
    run = Run(dialect, frames)
    for frame, events in zip(frames, run.per_frame, strict=True):
        assert events, f"no event for {frame!r}"
        for event in events:
            assert event.get("opaque", event.get("payload", frame)) is frame


def test_the_adapter_refuses_a_dialect_it_does_not_accept() -> None:
    with pytest.raises(ValueError, match="gemini"):
        events_pydantic_ai.PydanticAIEvents().begin("gemini")


# --- passing cases -------------------------------------------------------------------


@pytest.mark.parametrize(("dialect", "frames"), [(CHAT, CHAT_TEXT), (ANTHROPIC, ANTHROPIC_STREAM)])
def test_ev_rules_hold_for_chat_text_and_anthropic_text_with_a_call(
    dialect: str, frames: Frames
) -> None:
    assert finding(dialect, frames) == set()


@pytest.mark.parametrize(("dialect", "frames"), [(CHAT, CHAT_ERROR), (ANTHROPIC, ANTHROPIC_ERROR)])
def test_ev_error_frame_an_error_frame_ends_the_stream_as_a_provider_error(
    dialect: str, frames: Frames
) -> None:
    run = Run(dialect, frames)
    assert run.outcome["error"]["kind"] == "provider_error"
    assert run.rules(persisted=True) == set()
    assert [message["kind"] for message in run.persisted] == ["request"]


@pytest.mark.parametrize(
    ("dialect", "frames", "canaries"),
    [
        (CHAT, CHAT_TEXT, ("CANARY-CHAT-TOP", "CANARY-CHAT-DELTA")),
        (ANTHROPIC, ANTHROPIC_STREAM, ("CANARY-ANT-MESSAGE", "CANARY-ANT-DELTA")),
    ],
)
def test_persist_canary_canaries_in_unknown_keys_are_not_persisted(
    dialect: str, frames: Frames, canaries: tuple[str, ...]
) -> None:
    assert "PERSIST-CANARY" not in finding(dialect, frames, persisted=True, canaries=canaries)
    assert not any(c in json.dumps(Run(dialect, frames).persisted) for c in canaries)


@pytest.mark.parametrize("dialect", [CHAT, ANTHROPIC])
def test_ev_truncated_an_empty_body_is_a_truncated_stream(dialect: str) -> None:
    run = Run(dialect, [])
    assert run.outcome["error"]["kind"] == "truncated" and run.events == []
    assert finding(dialect, []) == set()


# --- findings: persistence -------------------------------------------------------------


@pytest.mark.parametrize(
    ("dialect", "frames", "raw_id"),
    [(CHAT, CHAT_TEXT, "chatcmpl-pyd"), (ANTHROPIC, ANTHROPIC_STREAM, "msg_pyd")],
)
def test_persist_response_id_the_history_keeps_provider_response_id(
    dialect: str, frames: Frames, raw_id: str
) -> None:
    assert finding(dialect, frames, persisted=True) == {"PERSIST-RESPONSE-ID"}
    assert Run(dialect, frames).persisted[-1]["provider_response_id"] == raw_id


def test_persist_canary_chat_service_tier_is_persisted_in_provider_details() -> None:
    frames = [
        chunk({"content": "Hi"}, service_tier="CANARY-TIER"),
        chunk(finish="stop"),
        USAGE,
        DONE,
    ]
    assert finding(CHAT, frames, persisted=True, canaries=("CANARY-TIER",)) == {
        "PERSIST-CANARY",
        "PERSIST-RESPONSE-ID",
    }


def test_persist_canary_anthropic_thinking_text_is_persisted() -> None:
    frames = [
        start(),
        block(0, {"type": "thinking", "thinking": "", "signature": ""}),
        delta(0, type="thinking_delta", thinking="CANARY-THOUGHT"),
        delta(0, type="signature_delta", signature="sig"),
        stop(0),
        block(1, {"type": "text", "text": ""}),
        delta(1, type="text_delta", text="Hi"),
        stop(1),
        message_delta("end_turn"),
        MESSAGE_STOP,
    ]
    assert finding(ANTHROPIC, frames, persisted=True, canaries=("CANARY-THOUGHT",)) == {
        "PERSIST-CANARY",
        "PERSIST-RESPONSE-ID",
    }


def test_persist_canary_anthropic_refusal_explanation_is_persisted() -> None:
    details = {"type": "refusal", "category": "cyber", "explanation": "CANARY-WHY"}
    frames = [*ANTHROPIC_TEXT, message_delta("refusal", stop_details=details), MESSAGE_STOP]
    assert finding(ANTHROPIC, frames, persisted=True, canaries=("CANARY-WHY",)) == {
        "PERSIST-CANARY",
        "PERSIST-RESPONSE-ID",
        "EV-STOP-MAP",
    }


# --- findings: events ------------------------------------------------------------------


def test_ev_chat_complete_at_finish_a_call_completes_only_at_the_end_of_the_body() -> None:
    run = Run(CHAT, CHAT_CALL)
    assert finding(CHAT, CHAT_CALL) == {"EV-CHAT-COMPLETE-AT-FINISH"}
    assert [event["type"] for event in run.per_frame[-1]] == ["ToolCallCompleted", "Completed"]


def test_ev_no_delta_after_completed_a_call_ends_when_another_index_starts() -> None:
    frames = [
        call(0, "{", id="c0", name="f"),
        call(1, "{", id="c1", name="g"),
        call(0, "}"),
        call(1, "}"),
        chunk(finish="tool_calls"),
        USAGE,
        DONE,
    ]
    assert finding(CHAT, frames) == {
        "EV-NO-DELTA-AFTER-COMPLETED",
        "EV-ARGS-CONSERVE",
        "EV-TURN-CALLS",
        "EV-CHAT-COMPLETE-AT-FINISH",
    }


def test_ev_call_identity_a_resent_call_head_is_appended_to_name_and_arguments() -> None:
    head = call(0, "{}", id="c0", name="f")
    frames = [head, head, chunk(finish="tool_calls"), USAGE, DONE]
    assert finding(CHAT, frames) == {
        "EV-CALL-IDENTITY",
        "EV-ARGS-CONSERVE",
        "EV-FOLD-AGREES",
        "EV-CHAT-COMPLETE-AT-FINISH",
    }


@pytest.mark.parametrize(
    ("dialect", "frames", "rules"),
    [
        (
            CHAT,
            [chunk({"role": "assistant"}), chunk({"content": "Hel"})],
            {"EV-TRUNCATED", "EV-USAGE-UNREPORTED"},
        ),
        (ANTHROPIC, ANTHROPIC_TEXT, {"EV-TRUNCATED"}),
        (ANTHROPIC, [*ANTHROPIC_TEXT, message_delta("end_turn")], {"EV-TRUNCATED"}),
    ],
)
def test_ev_truncated_a_cut_stream_completes(dialect: str, frames: Frames, rules: set[str]) -> None:
    assert finding(dialect, frames) == rules
    assert Run(dialect, frames).outcome == {"outcome": "completed"}


def test_ev_args_conserve_cut_chat_arguments_complete_as_invalid_json() -> None:
    frames = CHAT_CALL[:3]
    # the call completes at the end of the body, which is where a call cut open is judged
    # (the reference completes a call still open at the end there too), so the timing is
    # not charged; the completion itself is (EV-ARGS-CONSERVE, EV-TRUNCATED)
    assert finding(CHAT, frames) == {"EV-TRUNCATED", "EV-ARGS-CONSERVE", "EV-USAGE-UNREPORTED"}
    completed = [e for e in Run(CHAT, frames).at_end if e["type"] == "ToolCallCompleted"]
    assert completed[0]["call"]["arguments"] == {"INVALID_JSON": '{"ci'}


def test_ev_args_invalid_anthropic_arguments_cut_by_max_tokens_complete() -> None:
    frames = [
        start(),
        block(0, TOOL),
        delta(0, type="input_json_delta", partial_json='{"a": '),
        stop(0),
        message_delta("max_tokens"),
        MESSAGE_STOP,
    ]
    assert finding(ANTHROPIC, frames) == {"EV-ARGS-INVALID", "EV-ARGS-CONSERVE"}


@pytest.mark.parametrize(
    "frames",
    [
        [chunk({"content": "Hi"}), chunk(finish="stop"), DONE],
        [
            chunk({"content": "Hi"}),
            chunk(finish="stop"),
            {**USAGE, "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}},
            DONE,
        ],
    ],
)
def test_ev_usage_unreported_a_turn_without_usage_reads_zeros(frames: Frames) -> None:
    assert finding(CHAT, frames) == {"EV-USAGE-UNREPORTED"}
    assert Run(CHAT, frames).events[-1]["turn"]["usage"] == {
        "input_tokens": 0,
        "output_tokens": 0,
        "cached_input_tokens": 0,
        "reasoning_tokens": 0,
    }


@pytest.mark.parametrize(
    ("dialect", "frames"),
    [
        (CHAT, [chunk({"role": "assistant", "refusal": "No."}), chunk(finish="stop"), USAGE, DONE]),
        *[
            (ANTHROPIC, [*ANTHROPIC_TEXT, message_delta(reason), MESSAGE_STOP])
            for reason in ("stop_sequence", "pause_turn", "refusal")
        ],
    ],
)
def test_ev_stop_map_finish_reason_has_no_stop_sequence_pause_turn_or_refusal(
    dialect: str, frames: Frames
) -> None:
    assert finding(dialect, frames) == {"EV-STOP-MAP"}


def test_ev_stop_tool_a_stop_with_tool_calls_stays_end_turn() -> None:
    frames = [call(0, "{}", id="c0", name="f"), chunk(finish="stop"), USAGE, DONE]
    assert finding(CHAT, frames) == {"EV-STOP-TOOL", "EV-CHAT-COMPLETE-AT-FINISH"}


def test_ev_fold_agrees_text_of_choice_1_is_taken_as_choice_0() -> None:
    two = [{"index": 0, "delta": {"content": "a"}}, {"index": 1, "delta": {"content": "b"}}]
    frames = [
        {**chunk(), "choices": two},
        {**chunk(), "choices": [{"index": 1, "delta": {"content": "B"}}]},
        chunk(finish="stop"),
        USAGE,
        DONE,
    ]
    assert finding(CHAT, frames) == {"EV-FOLD-AGREES"}
    assert Run(CHAT, frames).events[-1]["turn"]["output_text"] == "aB"


def test_ev_opaque_fallback_a_message_delta_without_usage_crashes_pydantic_ai() -> None:
    no_usage = {"type": "message_delta", "delta": {"stop_reason": "end_turn"}}
    adapter = events_pydantic_ai.PydanticAIEvents()
    adapter.begin(ANTHROPIC)
    for frame in ANTHROPIC_TEXT:
        adapter.frame(frame)
    assert library_version() == VERSION
    with pytest.raises(AttributeError, match="output_tokens_details"):
        adapter.frame(no_usage)


def test_an_anthropic_call_completes_at_the_end_of_the_body_not_at_its_block_stop() -> None:
    # No rule charges this (EV-CHAT-COMPLETE-AT-FINISH is Chat's): the events table says
    # content_block_stop of a tool_use block gives ToolCallCompleted; pydantic-ai ends the
    # part only when the stream ends.
    run = Run(ANTHROPIC, ANTHROPIC_STREAM)
    assert [event["type"] for event in run.per_frame[10]] == ["Opaque"]
    assert [event["type"] for event in run.at_end] == ["ToolCallCompleted", "Completed"]


def test_ev_call_started_a_call_named_before_its_id_starts_under_a_made_up_id() -> None:
    named = {"index": 0, "type": "function", "function": {"name": "get_weather", "arguments": ""}}
    late_id = {"index": 0, "id": "call_late", "function": {"arguments": "{}"}}
    frames = [
        chunk({"tool_calls": [named]}),
        chunk({"tool_calls": [late_id]}),
        chunk(finish="tool_calls"),
        USAGE,
        DONE,
    ]
    run = Run(CHAT, frames)
    assert finding(CHAT, frames) == {
        "EV-CALL-STARTED",
        "EV-STARTED-COMPLETED",
        "EV-CHAT-COMPLETE-AT-FINISH",
    }
    assert run.per_frame[0][0]["id"].startswith("pyd_ai_")


def test_ev_turn_fields_chat_model_and_response_id_are_the_last_chunks() -> None:
    later = {**USAGE, "id": "chatcmpl-later", "model": "later-model"}
    frames = [chunk({"content": "Hi"}), chunk(finish="stop"), later, DONE]
    assert finding(CHAT, frames) == {"EV-TURN-FIELDS"}
    turn = Run(CHAT, frames).events[-1]["turn"]
    assert (turn["model"], turn["response_id"]) == ("later-model", "chatcmpl-later")


def test_ev_turn_fields_an_event_before_message_start_loses_the_reported_model() -> None:
    frames = [{"type": "vertex_event"}, *ANTHROPIC_STREAM]
    assert finding(ANTHROPIC, frames) == {"EV-TURN-FIELDS"}
    assert Run(ANTHROPIC, frames).events[-1]["turn"]["model"] == "refold-offline"


def test_ev_fold_agrees_text_after_message_stop_is_folded_into_the_turn() -> None:
    frames = [*ANTHROPIC_STREAM, delta(0, type="text_delta", text="late")]
    assert finding(ANTHROPIC, frames) == {"EV-FOLD-AGREES"}
    assert Run(ANTHROPIC, frames).events[-1]["turn"]["output_text"] == "Hellolate"


def test_rob_null_entries_a_null_choice_entry_crashes_pydantic_ai() -> None:
    frames = [
        {
            **chunk(finish="stop"),
            "choices": [None, {"index": 0, "delta": {}, "finish_reason": "stop"}],
        },
        DONE,
    ]
    adapter = events_pydantic_ai.PydanticAIEvents()
    adapter.begin(CHAT)
    assert library_version() == VERSION
    with pytest.raises(AttributeError, match="finish_reason"):
        adapter.frame(frames[0])


def test_ev_frame_cover_a_delta_after_a_tool_use_start_with_input_ends_the_stream() -> None:
    # pydantic-ai raises UnexpectedModelBehavior ("Cannot apply JSON deltas to non-JSON
    # tool arguments"): the start's input is a dict, the delta (even empty) a string. The
    # adapter reads every UnexpectedModelBehavior as `truncated`, so EV-TRUNCATED is charged.
    frames = [
        start(),
        block(0, {**TOOL, "input": {"city": "Paris"}}),
        delta(0, type="input_json_delta", partial_json=""),
        stop(0),
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    run = Run(ANTHROPIC, frames)
    assert run.outcome["error"]["kind"] == "truncated"
    assert finding(ANTHROPIC, frames) == {"EV-FRAME-COVER", "EV-TRUNCATED"}


# --- the adapter's own duties ------------------------------------------------------------


def test_ev_opaque_type_an_anthropic_frame_sent_without_event_name_is_message() -> None:
    # sse_frames writes no `event:` line for a blank type, so the transport sent none.
    frames = [{"type": "", "message": {"id": "msg_other"}}, *ANTHROPIC_STREAM]
    run = Run(ANTHROPIC, frames)
    assert run.per_frame[0] == [{"type": "Opaque", "event_type": "message", "payload": frames[0]}]
    assert "EV-OPAQUE-TYPE" not in run.rules()


def test_a_warning_pydantic_ai_issues_does_not_become_the_streams_error() -> None:
    # genai-prices cannot price a usage without input_tokens and pydantic-ai warns
    # (UsageExtractionFailedWarning); under `filterwarnings = error` that warning must not
    # be raised inside the library.
    frames = [start(usage={"output_tokens": 1}), *ANTHROPIC_STREAM[1:]]
    run = Run(ANTHROPIC, frames)
    assert run.outcome == {"outcome": "completed"}
