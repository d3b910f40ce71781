"""The built-in events target `ai-sdk-events` (events_ai_sdk.js): the Vercel AI SDK's stream
parts (`doStream` of `@ai-sdk/openai`'s chat model and of `@ai-sdk/anthropic`) as neutral
events, over refold-events/1, checked with `refold.reference.events.check_events`.

The process is driven by `_events_exec_driver` (events.md §5: begin, frame with an ack per
frame, end). Here: the target's name, versions and hello, and the passing cases of both
dialects, each keeping every rule checked and, unless said, emitting every event before
the ack of its frame. What the AI SDK breaks is pinned in test_ai_sdk_events_findings.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from _events_exec_driver import EventsProcess, Run, checked, late, on_time
from _events_frames import (
    CHAT,
    MESSAGE_STOP,
    MESSAGES,
    TEXT_BLOCK,
    block,
    call,
    chunk,
    delta,
    hello_text,
    message_delta,
    partial,
    start,
    stop,
    text,
    tools,
)

from refold.reference.events import check_events, normalize
from refold.targets.loading import BUILTIN_EVENTS_TARGETS, BUILTIN_TARGETS
from refold.targets.sdk import nodejs

OPENAI = "3.0.141"  # @ai-sdk/openai: the newest on @ai-sdk/provider 3 (4.x: provider 4, Node 22)
ANTHROPIC = "3.0.140"  # @ai-sdk/anthropic (4.x needs Node 22)
COMMAND = f"node {nodejs.NODE_TARGETS['ai-sdk-events'].file}"


@pytest.fixture(scope="module")
def adapter() -> Iterator[EventsProcess]:
    process = EventsProcess(["node", str(nodejs.NODE_TARGETS["ai-sdk-events"].file)])
    yield process
    process.close()
    assert process.stderr == ""  # no unhandled rejection, no failure of the module's streams


# The target: its name, command, versions and hello.


def test_ai_sdk_events_is_a_built_in_events_target_run_as_exec_node_of_its_file() -> None:
    assert BUILTIN_EVENTS_TARGETS["ai-sdk-events"] == f"exec:{COMMAND}"
    assert "ai-sdk-events" not in BUILTIN_TARGETS  # not a client of the exec: fold protocol
    nodejs.require_node("ai-sdk-events")


def test_the_lock_file_pins_both_providers_on_one_provider_major() -> None:
    packages = json.loads((nodejs.NODE_DIR / "package-lock.json").read_text("utf-8"))["packages"]
    openai = packages["node_modules/@ai-sdk/openai"]
    anthropic = packages["node_modules/@ai-sdk/anthropic"]
    assert (openai["version"], anthropic["version"]) == (OPENAI, ANTHROPIC)
    majors = {p["dependencies"]["@ai-sdk/provider"].split(".")[0] for p in (openai, anthropic)}
    assert majors == {"3"}
    assert openai["engines"]["node"] == ">=18"


def test_hello_declares_provider_ai_sdk_for_both_dialects(adapter: EventsProcess) -> None:
    assert adapter.hello == {
        "protocol": "refold-events/1",
        "provider": "ai-sdk",
        "dialects": [CHAT, "openai-responses", MESSAGES],
        "features": ["events"],
        "operations": ["fold"],
        "description": f"ai-sdk: @ai-sdk/openai {OPENAI} ({CHAT}), @ai-sdk/openai {OPENAI} "
        f"(openai-responses), @ai-sdk/anthropic "
        f"{ANTHROPIC} ({MESSAGES}): doStream stream parts as neutral events",
    }


def test_late_names_an_event_whose_frame_was_acked_before_it_arrived() -> None:
    frames = [{"a": 1}, {"b": 2}, "[DONE]"]
    run = Run(
        frames,
        events=[
            {"type": "Opaque", "event_type": "message", "payload": {"a": 1}},
            {"type": "TextDelta", "delta": "x", "opaque": {"b": 2}},
            {"type": "Usage", "usage": {}, "opaque": {"b": 2}},
            {"type": "Completed", "turn": {}},
        ],
        windows=[0, 1, 3, 3],
    )
    assert late(run) == [(2, 1, 3)]  # Completed carries no frame; on-time events pass


# Passing cases: every rule checked holds and every event comes before its frame's ack.


def test_chat_text_from_the_first_chunk_streams_frame_by_frame(adapter: EventsProcess) -> None:
    # EV-TEXT, EV-TEXT-CONSERVE, EV-OPAQUE-FRAME, EV-CHAT-EOF (no [DONE]: completes at the end)
    frames = [
        chunk({"role": "assistant", "content": "Hel"}),
        chunk({"content": "lo"}),
        chunk({}, "stop"),
    ]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == [] and on_time(run)
    assert run.kinds == ["TextDelta", "TextDelta", "Opaque", "Completed"]
    assert run.windows == [0, 1, 2, 3]
    assert run.events[-1]["turn"]["output_text"] == "Hello"
    assert run.persisted == [{"role": "assistant", "content": [{"type": "text", "text": "Hello"}]}]


def test_a_chat_stream_of_one_finish_chunk_is_its_opaque_then_completed(
    adapter: EventsProcess,
) -> None:
    # EV-FRAME-COVER, EV-OPAQUE-FALLBACK, EV-COMPLETED-LAST: with no output chunk its parts
    # (raw, response-metadata, finish) come only when the body ends (the held-back chunks of
    # test_ev_frame_order_chat_chunks_before_the_first_output_are_held_back); the frame's
    # Opaque comes before Completed.
    frames = [chunk({}, "stop")]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == []
    assert run.kinds == ["Opaque", "Completed"] and run.events[0]["payload"] == frames[0]
    assert run.windows == [1, 1]


def test_a_chat_stream_that_names_no_model_turns_into_model_empty(adapter: EventsProcess) -> None:
    # EV-GRAMMAR (ProviderTurn.model is a string), EV-TURN-FIELDS: the reference's "" when
    # no chunk names a model (response-metadata has modelId undefined)
    frames = [
        chunk({"role": "assistant", "content": "Hi"}, model=None),
        chunk({}, "stop", model=None),
    ]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == []
    assert run.events[-1]["turn"]["model"] == ""


def test_calls_started_out_of_index_order_turn_as_the_reference_adapter_does(
    adapter: EventsProcess,
) -> None:
    # The tracker completes the calls at the end of the body sorted by index; T.tool_calls
    # and the fold op keep that, completion, order, as the reference adapter's turn does (the
    # chat fold's TOOL-OUTPUT order, EV-FOLD-AGREES). EV-TURN-CALLS reads "in the order of
    # their ToolCallStarted", which contradicts EV-FOLD-AGREES here: the checker accepts the
    # fold's order too (the reading pinned in
    # tests/dialects/provider_events/test_reference_events_decisions.py).
    frames = [
        tools(call(2, "call_b", "g", '{"x":1}'), role="assistant"),
        tools(call(0, "call_a", "f", "{}")),
        chunk({}, "tool_calls"),
        "[DONE]",
    ]
    run, rules = checked(adapter, CHAT, frames)
    reference = normalize(CHAT, frames)
    assert (
        rules
        == []
        == [v.rule for v in check_events(CHAT, frames, reference["events"], reference["outcome"])]
    )
    assert [c["id"] for c in run.events[-1]["turn"]["tool_calls"]] == ["call_a", "call_b"]


def test_anthropic_text_streams_frame_by_frame_and_completes_at_message_stop(
    adapter: EventsProcess,
) -> None:
    # EV-TEXT, EV-COMPLETED-LAST, EV-FRAME-COVER, EV-OPAQUE-TYPE, EV-USAGE-LAST, EV-TURN-FIELDS
    frames = hello_text()
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == [] and on_time(run)
    assert run.windows_of("Completed") == [6]
    turn = run.events[-1]["turn"]
    assert (turn["provider"], turn["model"], turn["output_text"]) == (
        "ai-sdk",
        "claude-sonnet-4-5",
        "Hello",
    )
    assert run.events[0] == {"type": "Opaque", "event_type": "message_start", "payload": frames[0]}


def test_anthropic_tool_call_with_split_arguments_completes_at_its_block_stop(
    adapter: EventsProcess,
) -> None:
    # EV-CALL-STARTED, EV-ARGS-DELTA, EV-ARGS-CONSERVE, EV-ARGS-PARSED, EV-TURN-CALLS
    frames = [
        start(),
        block(0, {"type": "text", "text": ""}),
        text(0, "Let me look."),
        stop(0),
        block(1, {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}),
        partial(1, '{"city"'),
        partial(1, ""),
        partial(1, ': "Paris"}'),
        stop(1),
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == [] and on_time(run)
    assert [e["delta"] for e in run.events if e["type"] == "ToolCallArgumentsDelta"] == [
        '{"city"',
        ': "Paris"}',
    ]
    assert run.windows_of("ToolCallCompleted") == [8]
    assert run.events[-1]["turn"]["tool_calls"] == [
        {"id": "toolu_1", "name": "get_weather", "arguments": {"city": "Paris"}}
    ]
    assert run.events[-1]["turn"]["stop_reason"] == "tool_use"
    assert run.persisted == [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Let me look."},
                {
                    "type": "tool-call",
                    "toolCallId": "toolu_1",
                    "toolName": "get_weather",
                    "input": {"city": "Paris"},
                },
            ],
        }
    ]


def test_anthropic_cache_buckets_are_added_into_input_tokens(adapter: EventsProcess) -> None:
    # EV-USAGE (normalised: input + cache creation + cache read; cached = cache read)
    frames = [
        start(
            {
                "input_tokens": 10,
                "cache_creation_input_tokens": 3,
                "cache_read_input_tokens": 4,
                "output_tokens": 1,
            }
        ),
        block(0, TEXT_BLOCK),
        text(0, "Hi"),
        stop(0),
        message_delta("end_turn", 7),
        MESSAGE_STOP,
    ]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == [] and on_time(run)
    assert run.events[-1]["turn"]["usage"] == {
        "input_tokens": 17,
        "output_tokens": 7,
        "cached_input_tokens": 4,
        "reasoning_tokens": None,
    }


def test_anthropic_thinking_and_server_tools_stay_opaque(adapter: EventsProcess) -> None:
    # EV-REASONING-OPAQUE, EV-HOSTED-OPAQUE
    frames = [
        start(),
        block(0, {"type": "thinking", "thinking": ""}),
        delta(0, {"type": "thinking_delta", "thinking": "hmm"}),
        delta(0, {"type": "signature_delta", "signature": "sig"}),
        stop(0),
        block(
            1, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
        ),
        partial(1, '{"query": "x"}'),
        stop(1),
        block(2, {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}),
        stop(2),
        block(3, TEXT_BLOCK),
        text(3, "Hi"),
        stop(3),
        message_delta("end_turn"),
        MESSAGE_STOP,
    ]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == [] and on_time(run)
    assert [k for k in run.kinds if k != "Opaque"] == ["TextDelta", "Usage", "Completed"]


def test_a_truncated_anthropic_stream_ends_in_error_truncated(adapter: EventsProcess) -> None:
    # EV-TRUNCATED: no message_stop, no finish part
    frames = [start(), block(0, TEXT_BLOCK), text(0, "Hel")]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == [] and on_time(run)
    assert run.outcome["error"]["kind"] == "truncated"


@pytest.mark.parametrize("dialect", [CHAT, MESSAGES])
def test_arguments_cut_at_the_boundary_end_in_invalid_tool_arguments(
    adapter: EventsProcess, dialect: str
) -> None:
    # EV-ARGS-INVALID: no ToolCallCompleted, outcome error (invalid_tool_arguments)
    frames: list[Any] = (
        [
            tools(call(0, "call_w1", "get_weather", '{"city"'), role="assistant"),
            chunk({}, "length"),
            "[DONE]",
        ]
        if dialect == CHAT
        else [
            start(),
            block(0, {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}),
            partial(0, '{"city"'),
            stop(0),
            message_delta("max_tokens"),
            MESSAGE_STOP,
        ]
    )
    run, rules = checked(adapter, dialect, frames)
    assert rules == []
    assert "ToolCallCompleted" not in run.kinds
    assert run.outcome["error"]["kind"] == "invalid_tool_arguments"


@pytest.mark.parametrize("dialect", [CHAT, MESSAGES])
def test_an_error_frame_after_output_is_one_opaque_and_provider_error(
    adapter: EventsProcess, dialect: str
) -> None:
    # EV-ERROR-FRAME, EV-NOTHING-AFTER-ERROR
    frames: list[Any] = (
        [
            chunk({"role": "assistant", "content": "Hel"}),
            {"error": {"message": "overloaded", "type": "server_error", "code": None}},
            chunk({"content": "lo"}),
        ]
        if dialect == CHAT
        else [
            start(),
            block(0, TEXT_BLOCK),
            text(0, "Hel"),
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            text(0, "lo"),
        ]
    )
    run, rules = checked(adapter, dialect, frames)
    assert rules == [] and on_time(run)
    assert run.kinds[-1] == "Opaque" and run.events[-1]["payload"] == frames[-2]
    assert run.outcome["error"]["kind"] == "provider_error"


def test_an_anthropic_error_event_first_is_provider_error(adapter: EventsProcess) -> None:
    # EV-ERROR-FRAME: doStream rejects with the provider's APICallError
    frames = [{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == [] and on_time(run)
    assert run.kinds == ["Opaque"] and run.outcome["error"]["kind"] == "provider_error"


def test_canaries_in_unknown_keys_are_not_persisted(adapter: EventsProcess) -> None:
    # PERSIST-CANARY, PERSIST-STRIP, PERSIST-RESPONSE-ID, PERSIST-PORTABLE, -NO-SEMANTICS
    canaries = ("CANARY-c1", "CANARY-c2", "CANARY-c3", "CANARY-a1", "CANARY-a2", "CANARY-a3")
    chat = [
        chunk(
            {"role": "assistant", "content": "Hi", "x_refold": "CANARY-c1"},
            system_fingerprint="CANARY-c2",
            x_refold={"deep": "CANARY-c3"},
        ),
        chunk({}, "stop"),
    ]
    messages = [
        start(x_refold="CANARY-a1"),
        {"type": "ping"},
        block(0, TEXT_BLOCK, x_refold="CANARY-a2"),
        text(0, "Hi"),
        stop(0),
        {**message_delta("end_turn"), "x_refold": {"deep": "CANARY-a3"}},
        MESSAGE_STOP,
    ]
    for dialect, frames in ((CHAT, chat), (MESSAGES, messages)):
        run, rules = checked(adapter, dialect, frames, canaries)
        assert rules == [] and on_time(run)
        assert run.persisted == [{"role": "assistant", "content": [{"type": "text", "text": "Hi"}]}]
        assert "CANARY" in json.dumps(run.events)  # the opaques carry them, unstripped
