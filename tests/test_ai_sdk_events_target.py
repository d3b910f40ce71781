"""The built-in events target `ai-sdk-events` (events_ai_sdk.js): the Vercel AI SDK's stream
parts (`doStream` of `@ai-sdk/openai`'s chat model and of `@ai-sdk/anthropic`) as neutral
events, over refold-events/1, checked with `refold.reference.events.check_events`.

The process is driven by `_events_exec_driver` (events.md §5: begin, frame with an ack per
frame, end) until the harness's own client lands. A passing case keeps every rule checked
and emits every event before the ack of its frame. A finding is pinned by one test named
after the invariant the AI SDK breaks: it asserts the exact rule ids `check_events`
reports (or, for what one stream's output cannot show, the ack windows or the reference
adapter's events), the AI SDK behaviour behind it, and holds for the versions below.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from _events_exec_driver import EventsProcess, Run, late
from _events_frames import (
    MESSAGE_STOP,
    ROLE,
    TEXT_BLOCK,
    USAGE,
    WEATHER,
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
CHAT, MESSAGES = "openai-chat", "anthropic-messages"
COMMAND = f"node {nodejs.NODE_DIR / 'events_ai_sdk.js'}"


@pytest.fixture(scope="module")
def adapter() -> Iterator[EventsProcess]:
    process = EventsProcess(["node", str(nodejs.NODE_DIR / "events_ai_sdk.js")])
    yield process
    process.close()
    assert process.stderr == ""  # no unhandled rejection, no failure of the module's streams


def checked(adapter: EventsProcess, dialect: str, frames: list[Any],
            canaries: tuple[str, ...] = ()) -> tuple[Run, list[str]]:
    """The run of `frames` and the rule of every violation check_events finds in it."""
    run = adapter.run(dialect, frames)
    found = check_events(dialect, frames, run.events, run.outcome, run.persisted,
                         canaries=canaries, provider="ai-sdk", fold=adapter.fold)
    return run, [violation.rule for violation in found]


def on_time(run: Run) -> bool:
    """Every event carrying a frame came before that frame's ack."""
    return late(run) == []


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
        "protocol": "refold-events/1", "provider": "ai-sdk", "dialects": [CHAT, MESSAGES],
        "features": ["events"], "operations": ["fold"],
        "description": f"ai-sdk: @ai-sdk/openai {OPENAI} ({CHAT}), @ai-sdk/anthropic "
                       f"{ANTHROPIC} ({MESSAGES}): doStream stream parts as neutral events"}


def test_late_names_an_event_whose_frame_was_acked_before_it_arrived() -> None:
    frames = [{"a": 1}, {"b": 2}, "[DONE]"]
    run = Run(frames, events=[{"type": "Opaque", "event_type": "message", "payload": {"a": 1}},
                              {"type": "TextDelta", "delta": "x", "opaque": {"b": 2}},
                              {"type": "Usage", "usage": {}, "opaque": {"b": 2}},
                              {"type": "Completed", "turn": {}}],
              windows=[0, 1, 3, 3])
    assert late(run) == [(2, 1, 3)]  # Completed carries no frame; on-time events pass


# Passing cases: every rule checked holds and every event comes before its frame's ack.

def test_chat_text_from_the_first_chunk_streams_frame_by_frame(adapter: EventsProcess) -> None:
    # EV-TEXT, EV-TEXT-CONSERVE, EV-OPAQUE-FRAME, EV-CHAT-EOF (no [DONE]: completes at the end)
    frames = [chunk({"role": "assistant", "content": "Hel"}), chunk({"content": "lo"}),
              chunk({}, "stop")]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == [] and on_time(run)
    assert run.kinds == ["TextDelta", "TextDelta", "Opaque", "Completed"]
    assert run.windows == [0, 1, 2, 3]
    assert run.events[-1]["turn"]["output_text"] == "Hello"
    assert run.persisted == [{"role": "assistant", "content": [{"type": "text", "text": "Hello"}]}]


def test_a_chat_stream_of_one_finish_chunk_is_its_opaque_then_completed(
        adapter: EventsProcess) -> None:
    # EV-FRAME-COVER, EV-OPAQUE-FALLBACK, EV-COMPLETED-LAST: with no output chunk its parts
    # (raw, response-metadata, finish) come only when the body ends (the held-back chunks of
    # test_ev_frame_order_chat_chunks_before_the_first_output_are_held_back); the frame's
    # Opaque comes before Completed.
    frames = [chunk({}, "stop")]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == []
    assert run.kinds == ["Opaque", "Completed"] and run.events[0]["payload"] == frames[0]
    assert run.windows == [1, 1]


def test_anthropic_text_streams_frame_by_frame_and_completes_at_message_stop(
        adapter: EventsProcess) -> None:
    # EV-TEXT, EV-COMPLETED-LAST, EV-FRAME-COVER, EV-OPAQUE-TYPE, EV-USAGE-LAST, EV-TURN-FIELDS
    frames = hello_text()
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == [] and on_time(run)
    assert run.windows_of("Completed") == [6]
    turn = run.events[-1]["turn"]
    assert (turn["provider"], turn["model"], turn["output_text"]) == \
        ("ai-sdk", "claude-sonnet-4-5", "Hello")
    assert run.events[0] == {"type": "Opaque", "event_type": "message_start",
                             "payload": frames[0]}


def test_anthropic_tool_call_with_split_arguments_completes_at_its_block_stop(
        adapter: EventsProcess) -> None:
    # EV-CALL-STARTED, EV-ARGS-DELTA, EV-ARGS-CONSERVE, EV-ARGS-PARSED, EV-TURN-CALLS
    frames = [start(), block(0, {"type": "text", "text": ""}), text(0, "Let me look."), stop(0),
              block(1, {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}),
              partial(1, '{"city"'), partial(1, ""), partial(1, ': "Paris"}'), stop(1),
              message_delta("tool_use"), MESSAGE_STOP]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == [] and on_time(run)
    assert [e["delta"] for e in run.events if e["type"] == "ToolCallArgumentsDelta"] == \
        ['{"city"', ': "Paris"}']
    assert run.windows_of("ToolCallCompleted") == [8]
    assert run.events[-1]["turn"]["tool_calls"] == [
        {"id": "toolu_1", "name": "get_weather", "arguments": {"city": "Paris"}}]
    assert run.events[-1]["turn"]["stop_reason"] == "tool_use"
    assert run.persisted == [{"role": "assistant", "content": [
        {"type": "text", "text": "Let me look."},
        {"type": "tool-call", "toolCallId": "toolu_1", "toolName": "get_weather",
         "input": {"city": "Paris"}}]}]


def test_anthropic_cache_buckets_are_added_into_input_tokens(adapter: EventsProcess) -> None:
    # EV-USAGE (normalised: input + cache creation + cache read; cached = cache read)
    frames = [start({"input_tokens": 10, "cache_creation_input_tokens": 3,
                     "cache_read_input_tokens": 4, "output_tokens": 1}),
              block(0, TEXT_BLOCK), text(0, "Hi"), stop(0), message_delta("end_turn", 7),
              MESSAGE_STOP]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == [] and on_time(run)
    assert run.events[-1]["turn"]["usage"] == {"input_tokens": 17, "output_tokens": 7,
                                               "cached_input_tokens": 4,
                                               "reasoning_tokens": None}


def test_anthropic_thinking_and_server_tools_stay_opaque(adapter: EventsProcess) -> None:
    # EV-REASONING-OPAQUE, EV-HOSTED-OPAQUE
    frames = [start(), block(0, {"type": "thinking", "thinking": ""}),
              delta(0, {"type": "thinking_delta", "thinking": "hmm"}),
              delta(0, {"type": "signature_delta", "signature": "sig"}), stop(0),
              block(1, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
                        "input": {}}),
              partial(1, '{"query": "x"}'), stop(1),
              block(2, {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1",
                        "content": []}), stop(2),
              block(3, TEXT_BLOCK), text(3, "Hi"), stop(3), message_delta("end_turn"),
              MESSAGE_STOP]
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
        adapter: EventsProcess, dialect: str) -> None:
    # EV-ARGS-INVALID: no ToolCallCompleted, outcome error (invalid_tool_arguments)
    frames: list[Any] = (
        [tools(call(0, "call_w1", "get_weather", '{"city"'), role="assistant"),
         chunk({}, "length"), "[DONE]"] if dialect == CHAT else
        [start(), block(0, {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
                            "input": {}}),
         partial(0, '{"city"'), stop(0), message_delta("max_tokens"), MESSAGE_STOP])
    run, rules = checked(adapter, dialect, frames)
    assert rules == []
    assert "ToolCallCompleted" not in run.kinds
    assert run.outcome["error"]["kind"] == "invalid_tool_arguments"


@pytest.mark.parametrize("dialect", [CHAT, MESSAGES])
def test_an_error_frame_after_output_is_one_opaque_and_provider_error(
        adapter: EventsProcess, dialect: str) -> None:
    # EV-ERROR-FRAME, EV-NOTHING-AFTER-ERROR
    frames: list[Any] = (
        [chunk({"role": "assistant", "content": "Hel"}),
         {"error": {"message": "overloaded", "type": "server_error", "code": None}},
         chunk({"content": "lo"})] if dialect == CHAT else
        [start(), block(0, TEXT_BLOCK), text(0, "Hel"),
         {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
         text(0, "lo")])
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
    chat = [chunk({"role": "assistant", "content": "Hi", "x_refold": "CANARY-c1"},
                  system_fingerprint="CANARY-c2", x_refold={"deep": "CANARY-c3"}),
            chunk({}, "stop")]
    messages = [start(x_refold="CANARY-a1"), {"type": "ping"},
                block(0, TEXT_BLOCK, x_refold="CANARY-a2"), text(0, "Hi"), stop(0),
                {**message_delta("end_turn"), "x_refold": {"deep": "CANARY-a3"}}, MESSAGE_STOP]
    for dialect, frames in ((CHAT, chat), (MESSAGES, messages)):
        run, rules = checked(adapter, dialect, frames, canaries)
        assert rules == [] and on_time(run)
        assert run.persisted == [{"role": "assistant",
                                  "content": [{"type": "text", "text": "Hi"}]}]
        assert "CANARY" in json.dumps(run.events)  # the opaques carry them, unstripped


# Findings: @ai-sdk/openai 3.0.141 (openai-chat).

def test_ev_frame_order_chat_chunks_before_the_first_output_are_held_back(
        adapter: EventsProcess) -> None:
    # doStream tees the body and reads ahead to the first output chunk before it returns
    # (throwIfOpenAIStreamErrorBeforeOutput): a role-only chunk's parts, and so its Opaque,
    # come only after the next chunk was sent. One stream's events cannot show it: the ack can.
    frames = [ROLE, chunk({}), chunk({"content": "Hi"}), chunk({}, "stop")]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == []
    assert late(run) == [(0, 0, 2), (1, 1, 2)]  # (event, its frame, the frame acked after it)


def test_ev_chat_done_chat_completes_when_the_body_ends_not_at_done(
        adapter: EventsProcess) -> None:
    # The finish part (usage, finishReason) is emitted by the transform's flush, at the end of
    # the body: Completed comes after `end`, not with [DONE] (and, EV-FRAME-ORDER, the Usage
    # of the usage chunk after its ack).
    frames = [chunk({"role": "assistant", "content": "Hi"}), chunk({}, "stop"), USAGE, "[DONE]"]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == []
    assert run.windows_of("Completed") == [len(frames)]  # expected: 3, the [DONE] frame's
    assert late(run) == [(run.kinds.index("Usage"), 2, len(frames))]


def test_ev_chat_complete_at_finish_chat_calls_complete_when_the_body_ends(
        adapter: EventsProcess) -> None:
    # StreamingToolCallTracker emits tool-call only from flush(), at the end of the body: the
    # call completes after the usage chunk (so its frame is the usage chunk's), never at the
    # finish chunk; without a usage chunk the frame is right but the ack shows it late.
    run, rules = checked(adapter, CHAT, [*WEATHER, chunk({}, "tool_calls"), USAGE, "[DONE]"])
    assert rules == ["EV-CHAT-COMPLETE-AT-FINISH"]
    assert run.events[-1]["turn"]["tool_calls"] == [
        {"id": "call_w1", "name": "get_weather", "arguments": {"city": "Paris"}}]
    frames = [*WEATHER, chunk({}, "tool_calls"), "[DONE]"]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == []
    assert late(run) == [(run.kinds.index("ToolCallCompleted"), 3, len(frames))]


def test_ev_truncated_chat_a_body_without_finish_reason_completes(
        adapter: EventsProcess) -> None:
    # flush() always emits a finish part; a cut body gives finishReason
    # {unified: "other", raw: undefined}, the same part as any finish: Completed.
    run, rules = checked(adapter, CHAT, [chunk({"role": "assistant", "content": "Hel"})])
    assert rules == ["EV-TRUNCATED"]
    assert run.outcome == {"outcome": "completed"}
    assert run.events[-1]["turn"]["opaque"]["finishReason"] == {"unified": "other"}


def test_ev_frame_cover_chat_chunks_before_an_error_before_output_vanish(
        adapter: EventsProcess) -> None:
    # An error chunk before any output makes doStream reject (APICallError): the chunks it
    # read ahead before it never reach a stream part.
    error = {"error": {"message": "overloaded", "type": "server_error", "code": None}}
    run, rules = checked(adapter, CHAT, [ROLE, error])
    assert rules == ["EV-FRAME-COVER"]
    assert run.events == [{"type": "Opaque", "event_type": "message", "payload": error}]


def test_ev_refusal_opaque_chat_refusal_text_is_a_text_delta(adapter: EventsProcess) -> None:
    # delta.refusal is emitted as text-delta, and stop after a refusal is "content-filter".
    frames = [ROLE, chunk({"refusal": "I can't"}), chunk({}, "stop"), "[DONE]"]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == ["EV-STOP-MAP", "EV-FOLD-AGREES"]
    assert run.events[-1]["turn"]["output_text"] == "I can't"
    assert run.events[-1]["turn"]["stop_reason"] == "content_filter"


def test_ev_call_route_chat_an_id_arriving_late_is_replaced_by_a_generated_one(
        adapter: EventsProcess) -> None:
    # chat-fold family 5: the tracker starts the call on its name with a generated id
    # (generateId, random: EV-DETERMINISM too) and keeps it when the wire id arrives, so the
    # ToolCall id is not the one a tool result must reference (also EV-CALL-STARTED: started
    # before its id was known).
    frames = [ROLE, tools(call(0, None, "get_weather", '{"a"')),
              tools(call(0, "call_9", None, ":1}")), chunk({}, "tool_calls"), "[DONE]"]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == ["EV-FOLD-AGREES"]
    [started] = [e for e in run.events if e["type"] == "ToolCallStarted"]
    assert started["id"] != "call_9"
    assert run.events[-1]["turn"]["tool_calls"][0]["id"] == started["id"]
    again = adapter.run(CHAT, frames)
    assert [e["id"] for e in again.events if e["type"] == "ToolCallStarted"] != [started["id"]]


def test_ev_call_started_chat_a_name_after_the_first_fragment_crashes_the_provider() -> None:
    # chat-fold TOOL-1 opens a call on a fragment without a name (the name comes later); the
    # tracker throws AI_InvalidResponseDataError inside the stream instead of waiting for
    # the name, and the stream is dead: the target fails (exit 1) before acking that frame.
    frames = [ROLE, tools(call(0, "call_1", None, '{"a"')), tools(call(0, None, "f", ":1}")),
              chunk({}, "tool_calls"), "[DONE]"]
    process = EventsProcess(["node", str(nodejs.NODE_DIR / "events_ai_sdk.js")])
    try:
        with pytest.raises(RuntimeError, match=r"exited \(1\): .*AI_InvalidResponseDataError: "
                                               r"Expected 'function.name' to be a string"):
            process.run(CHAT, frames)
    finally:
        process.close()


def test_ev_args_conserve_chat_a_resent_arguments_object_is_appended(
        adapter: EventsProcess) -> None:
    # chat-fold family 6 (TOOL-3 re-send): the whole arguments again under the same id are
    # appended, `{"x":1}{"x":1}`, and the call ends unparseable.
    frames = [ROLE, tools(call(0, "call_a", "f", '{"x":')), tools(call(0, arguments="1}")),
              tools(call(0, "call_a", None, '{"x":1}')), chunk({}, "tool_calls"), "[DONE]"]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == ["EV-ARGS-INVALID"]
    assert [e["delta"] for e in run.events if e["type"] == "ToolCallArgumentsDelta"] == \
        ['{"x":', "1}", '{"x":1}']
    assert run.outcome["error"]["kind"] == "invalid_tool_arguments"


def test_ev_call_route_chat_tool_fragments_without_index_fail_validation(
        adapter: EventsProcess) -> None:
    # chat-fold family 4 (TOOL-NO-INDEX, Gemini): the chunk schema requires `index`, so the
    # chunk is an error part (AI_TypeValidationError), not a call.
    frames = [ROLE, tools({"id": "call_a", "type": "function",
                           "function": {"name": "f", "arguments": '{"x":'}}),
              tools({"function": {"arguments": "1}"}}), chunk({}, "tool_calls"), "[DONE]"]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == ["EV-FRAME-COVER", "EV-FRAME-COVER", "EV-ERROR-FRAME"]
    assert "AI_TypeValidationError" in run.outcome["error"]["message"]


def test_ev_usage_chat_unreported_counters_are_zero_not_null(adapter: EventsProcess) -> None:
    # convertOpenAIChatUsage defaults a missing cached_tokens and reasoning_tokens to 0:
    # "not reported" reads as a real 0. Only the reference's own Usage (the differential
    # check, events.md §5.6) tells.
    frames = [chunk({"role": "assistant", "content": "Hi"}), chunk({}, "stop"), USAGE, "[DONE]"]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == []
    [usage] = [e["usage"] for e in run.events if e["type"] == "Usage"]
    [expected] = [e["usage"] for e in normalize(CHAT, frames)["events"] if e["type"] == "Usage"]
    assert expected == {"input_tokens": 5, "output_tokens": 2, "cached_input_tokens": None,
                        "reasoning_tokens": None}
    assert usage == {**expected, "cached_input_tokens": 0, "reasoning_tokens": 0}


# Findings: @ai-sdk/anthropic 3.0.140 (anthropic-messages).

@pytest.mark.parametrize(("reason", "received"), [("stop_sequence", "end_turn"),
                                                  ("pause_turn", "end_turn"),
                                                  ("refusal", "content_filter")])
def test_ev_stop_map_anthropic_stop_reasons_the_unified_vocabulary_lacks(
        adapter: EventsProcess, reason: str, received: str) -> None:
    # mapAnthropicStopReason: stop_sequence and pause_turn are "stop", refusal is
    # "content-filter" (the raw value survives only in finishReason.raw).
    frames = hello_text(reason, sequence="END" if reason == "stop_sequence" else None)
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == ["EV-STOP-MAP"]
    turn = run.events[-1]["turn"]
    assert (turn["stop_reason"], turn["opaque"]["finishReason"]["raw"]) == (received, reason)


def test_ev_usage_anthropic_usage_is_reported_only_at_message_stop(
        adapter: EventsProcess) -> None:
    # The provider keeps message_start's and message_delta's usage to itself until the finish
    # part at message_stop: one Usage, whose frame is message_stop, where the reference has
    # one per usage snapshot (message_start, message_delta).
    frames = hello_text()
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == []
    ours = [(e["opaque"], e["usage"]["output_tokens"]) for e in run.events
            if e["type"] == "Usage"]
    reference = [(e["opaque"], e["usage"]["output_tokens"])
                 for e in normalize(MESSAGES, frames)["events"] if e["type"] == "Usage"]
    assert ours == [(MESSAGE_STOP, 5)]
    assert reference == [(frames[0], 1), (frames[5], 5)]


@pytest.mark.parametrize("unknown", [{"type": "refold_unknown", "x": 1},
                                     block(0, {"type": "refold_block"})],
                         ids=["event type", "content block type"])
def test_ev_unknown_anthropic_unknown_types_are_an_error_part(
        adapter: EventsProcess, unknown: dict[str, Any]) -> None:
    # The chunk schema is a closed discriminated union: an unknown event or block type is an
    # error part (AI_TypeValidationError), and the stream's outcome is error.
    frames = [start(), unknown, *hello_text()[1:]]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == ["EV-FRAME-COVER"] * 5 + ["EV-ERROR-FRAME"]
    assert "AI_TypeValidationError" in run.outcome["error"]["message"]


def test_ev_text_anthropic_text_in_a_content_block_start_is_dropped(
        adapter: EventsProcess) -> None:
    # A text block whose content_block_start carries text: the provider emits text-start
    # only, the text is lost (anthropic-fold AQ24, AM-TEXT-JOIN).
    frames = [start(), block(0, {"type": "text", "text": "Hi"}), stop(0),
              message_delta("end_turn"), MESSAGE_STOP]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == ["EV-FOLD-AGREES"]
    assert "TextDelta" not in run.kinds and run.events[-1]["turn"]["output_text"] == ""
