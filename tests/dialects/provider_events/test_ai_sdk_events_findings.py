"""What the Vercel AI SDK's stream parts break of events.md, through `ai-sdk-events`
(events_ai_sdk.js), for @ai-sdk/openai 3.0.141 (openai-chat, `openai.chat(...).doStream`)
and @ai-sdk/anthropic 3.0.140 (anthropic-messages).

One test per finding, named after the invariant the AI SDK breaks. Each asserts the exact
rule ids `check_events` reports for its stream (or, where one stream's output cannot show
it, the ack windows of events.md §5.3 or the reference adapter's events, §5.6) and the AI
SDK behaviour behind it; the versions are asserted from the target's hello. A finding that
a later version fixes fails here: move it to the passing cases.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from _events_exec_driver import EventsProcess, checked, late
from _events_frames import (
    CHAT,
    MESSAGE_STOP,
    MESSAGES,
    ROLE,
    USAGE,
    WEATHER,
    block,
    call,
    chunk,
    delta,
    hello_text,
    message_delta,
    start,
    stop,
    text,
    tools,
)

from refold.reference.events import normalize
from refold.targets.sdk import nodejs

FILE = nodejs.NODE_TARGETS["ai-sdk-events"].file


@pytest.fixture(scope="module")
def adapter() -> Iterator[EventsProcess]:
    process = EventsProcess(["node", str(FILE)])
    yield process
    process.close()
    assert process.stderr == ""  # no unhandled rejection, no failure of the module's streams


def test_the_findings_are_of_the_pinned_versions(adapter: EventsProcess) -> None:
    assert "@ai-sdk/openai 3.0.141 (openai-chat)" in adapter.hello["description"]
    assert "@ai-sdk/anthropic 3.0.140 (anthropic-messages)" in adapter.hello["description"]


# Findings: @ai-sdk/openai 3.0.141 (openai-chat).


def test_ev_frame_order_chat_chunks_before_the_first_output_are_held_back(
    adapter: EventsProcess,
) -> None:
    # doStream tees the body and reads ahead to the first output chunk before it returns
    # (throwIfOpenAIStreamErrorBeforeOutput): a role-only chunk's parts, and so its Opaque,
    # come only after the next chunk was sent. One stream's events cannot show it: the ack can.
    frames = [ROLE, chunk({}), chunk({"content": "Hi"}), chunk({}, "stop")]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == []
    assert late(run) == [(0, 0, 2), (1, 1, 2)]  # (event, its frame, the frame acked after it)


def test_ev_chat_done_chat_completes_when_the_body_ends_not_at_done(adapter: EventsProcess) -> None:
    # The finish part (usage, finishReason) is emitted by the transform's flush, at the end of
    # the body: Completed comes after `end`, not with [DONE] (and, EV-FRAME-ORDER, the Usage
    # of the usage chunk after its ack).
    frames = [chunk({"role": "assistant", "content": "Hi"}), chunk({}, "stop"), USAGE, "[DONE]"]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == []
    assert run.windows_of("Completed") == [len(frames)]  # expected: 3, the [DONE] frame's
    assert late(run) == [(run.kinds.index("Usage"), 2, len(frames))]


def test_ev_chat_complete_at_finish_chat_calls_complete_when_the_body_ends(
    adapter: EventsProcess,
) -> None:
    # StreamingToolCallTracker emits tool-call only from flush(), at the end of the body: the
    # call completes after the usage chunk (so its frame is the usage chunk's), never at the
    # finish chunk; without a usage chunk the frame is right but the ack shows it late.
    run, rules = checked(adapter, CHAT, [*WEATHER, chunk({}, "tool_calls"), USAGE, "[DONE]"])
    assert rules == ["EV-CHAT-COMPLETE-AT-FINISH"]
    assert run.events[-1]["turn"]["tool_calls"] == [
        {"id": "call_w1", "name": "get_weather", "arguments": {"city": "Paris"}}
    ]
    frames = [*WEATHER, chunk({}, "tool_calls"), "[DONE]"]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == []
    assert late(run) == [(run.kinds.index("ToolCallCompleted"), 3, len(frames))]


def test_ev_truncated_chat_a_body_without_finish_reason_completes(adapter: EventsProcess) -> None:
    # flush() always emits a finish part; a cut body gives finishReason
    # {unified: "other", raw: undefined}, the same part as any finish: Completed.
    run, rules = checked(adapter, CHAT, [chunk({"role": "assistant", "content": "Hel"})])
    assert rules == ["EV-TRUNCATED"]
    assert run.outcome == {"outcome": "completed"}
    assert run.events[-1]["turn"]["opaque"]["finishReason"] == {"unified": "other"}


def test_ev_frame_cover_chat_chunks_before_an_error_before_output_vanish(
    adapter: EventsProcess,
) -> None:
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
    adapter: EventsProcess,
) -> None:
    # chat-fold family 5: the tracker starts the call on its name with a generated id
    # (generateId, random: EV-DETERMINISM too) and keeps it when the wire id arrives, so the
    # ToolCall id is not the one a tool result must reference (also EV-CALL-STARTED: started
    # before its id was known).
    frames = [
        ROLE,
        tools(call(0, None, "get_weather", '{"a"')),
        tools(call(0, "call_9", None, ":1}")),
        chunk({}, "tool_calls"),
        "[DONE]",
    ]
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
    frames = [
        ROLE,
        tools(call(0, "call_1", None, '{"a"')),
        tools(call(0, None, "f", ":1}")),
        chunk({}, "tool_calls"),
        "[DONE]",
    ]
    process = EventsProcess(["node", str(FILE)])
    try:
        with pytest.raises(
            RuntimeError,
            match=r"exited \(1\): .*AI_InvalidResponseDataError: "
            r"Expected 'function.name' to be a string",
        ):
            process.run(CHAT, frames)
    finally:
        process.close()


def test_ev_args_conserve_chat_a_resent_arguments_object_is_appended(
    adapter: EventsProcess,
) -> None:
    # chat-fold family 6 (TOOL-3 re-send): the whole arguments again under the same id are
    # appended, `{"x":1}{"x":1}`, and the call ends unparseable.
    frames = [
        ROLE,
        tools(call(0, "call_a", "f", '{"x":')),
        tools(call(0, arguments="1}")),
        tools(call(0, "call_a", None, '{"x":1}')),
        chunk({}, "tool_calls"),
        "[DONE]",
    ]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == ["EV-ARGS-INVALID"]
    assert [e["delta"] for e in run.events if e["type"] == "ToolCallArgumentsDelta"] == [
        '{"x":',
        "1}",
        '{"x":1}',
    ]
    assert run.outcome["error"]["kind"] == "invalid_tool_arguments"


def test_ev_call_route_chat_tool_fragments_without_index_fail_validation(
    adapter: EventsProcess,
) -> None:
    # chat-fold family 4 (TOOL-NO-INDEX, Gemini): the chunk schema requires `index`, so the
    # chunk is an error part (AI_TypeValidationError), not a call.
    frames = [
        ROLE,
        tools(
            {"id": "call_a", "type": "function", "function": {"name": "f", "arguments": '{"x":'}}
        ),
        tools({"function": {"arguments": "1}"}}),
        chunk({}, "tool_calls"),
        "[DONE]",
    ]
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
    assert expected == {
        "input_tokens": 5,
        "output_tokens": 2,
        "cached_input_tokens": None,
        "reasoning_tokens": None,
    }
    assert usage == {**expected, "cached_input_tokens": 0, "reasoning_tokens": 0}


def test_ev_choice0_chat_choice_0_is_read_by_position_not_by_index(adapter: EventsProcess) -> None:
    # The transform reads `value.choices[0]`, the first entry, where chat-fold CHOICE-KEY keys
    # a choice by its `index`: a second entry of choice 0 in the same chunk is dropped, and a
    # choice 1 listed first is read as choice 0. (Found by the EV-DETERMINISM suite, where a
    # dropped entry held a call's name and the next fragment crashed the tracker.)
    envelope = {
        "id": "chatcmpl-ev",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4o-mini",
    }
    same = {
        **envelope,
        "choices": [
            {"index": 0, "delta": {"role": "assistant", "content": "Hel"}},
            {"index": 0, "delta": {"content": "lo"}},
        ],
    }
    swapped = {
        **envelope,
        "choices": [
            {"index": 1, "delta": {"content": "B"}},
            {"index": 0, "delta": {"content": "A"}},
        ],
    }
    for first, received in ((same, "Hel"), (swapped, "B")):
        run, rules = checked(adapter, CHAT, [first, chunk({}, "stop"), "[DONE]"])
        assert rules == ["EV-FOLD-AGREES"]
        assert run.events[-1]["turn"]["output_text"] == received


def test_ev_error_frame_chat_an_error_next_to_choices_is_stripped_by_the_schema(
    adapter: EventsProcess,
) -> None:
    # A chunk with `choices` and a top-level `error` (OpenRouter's mid-stream error) matches
    # the union's chunk member first, which strips the unknown `error` key: the transform's
    # `"error" in value` never sees it, and finish_reason "error" completes the turn.
    failed = {**chunk({}, "error"), "error": {"code": 502, "message": "Provider disconnected"}}
    run, rules = checked(adapter, CHAT, [chunk({"role": "assistant", "content": "Hi"}), failed])
    assert rules == ["EV-ERROR-FRAME"]
    assert run.outcome == {"outcome": "completed"}
    assert run.events[-1]["turn"]["stop_reason"] == "other"


def test_ev_stop_map_chat_a_blank_finish_reason_overrides_the_real_one(
    adapter: EventsProcess,
) -> None:
    # chat-fold family 8: blank finish reasons are noise. The transform keeps the last
    # non-null finish_reason, so a later "" replaces "stop" and maps to "other".
    frames = [
        chunk({"role": "assistant", "content": "Hi"}),
        chunk({}, "stop"),
        {**chunk({}, ""), "usage": None},
        "[DONE]",
    ]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == ["EV-STOP-MAP"]
    assert run.events[-1]["turn"]["opaque"]["finishReason"] == {"unified": "other", "raw": ""}


def test_ev_turn_fields_chat_the_model_and_id_are_read_from_the_first_chunk_only(
    adapter: EventsProcess,
) -> None:
    # response-metadata is emitted once, from the first chunk with any of id, model, created:
    # chat-fold's first non-blank id and model (ENV-ID, ENV-MODEL), when a later chunk brings
    # them, never reach the turn.
    frames = [
        chunk({"role": "assistant", "content": "Hi"}, id=None, model=None),
        chunk({}, "stop", id="chatcmpl-later", model="later-model"),
    ]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == ["EV-TURN-FIELDS", "EV-TURN-FIELDS"]
    turn = run.events[-1]["turn"]
    assert (turn["model"], turn["response_id"]) == ("", None)


_ENVELOPE = {
    "id": "chatcmpl-ev",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "gpt-4o-mini",
}


@pytest.mark.parametrize(
    "noise",
    [
        {**_ENVELOPE, "choices": [None]},
        {**_ENVELOPE, "choices": [{"delta": {"content": "!"}}]},
        chunk({"tool_calls": [call(0, "call_1", "f", "{}"), None]}),
    ],
    ids=["null choice", "choice without index", "null tool_calls entry"],
)
def test_ev_unknown_chat_null_entries_and_index_less_choices_fail_validation(
    adapter: EventsProcess, noise: dict[str, Any]
) -> None:
    # chat-fold ROB-NULL-ENTRIES (null entries are skipped) and CHOICE-KEY (an entry without
    # an integer index is choice 0): the chunk schema rejects them, an error part.
    frames = [chunk({"role": "assistant", "content": "Hi"}), noise, chunk({}, "stop"), "[DONE]"]
    run, rules = checked(adapter, CHAT, frames)
    assert rules == ["EV-FRAME-COVER", "EV-ERROR-FRAME"]
    assert "AI_TypeValidationError" in run.outcome["error"]["message"]


# Findings: @ai-sdk/anthropic 3.0.140 (anthropic-messages).


def _without_usage(event: dict[str, Any]) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(event))
    (copy["message"] if event["type"] == "message_start" else copy).pop("usage")
    return copy


@pytest.mark.parametrize(
    ("at", "expected"),
    [(0, ["EV-FRAME-COVER"] * 5 + ["EV-ERROR-FRAME"]), (5, ["EV-ERROR-FRAME"])],
    ids=["message_start", "message_delta"],
)
def test_ev_usage_unreported_anthropic_an_event_without_usage_fails_validation(
    adapter: EventsProcess, at: int, expected: list[str]
) -> None:
    # anthropic-fold AM-USAGE-ABSENT: usage may be absent. The chunk schema requires it: a
    # message_start without it makes doStream reject (an APICallError wrapping the type
    # validation failure, the stream's first part), a message_delta without it is an error
    # part; either way the turn fails.
    frames = hello_text()
    frames[at] = _without_usage(frames[at])
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == expected
    assert "Type validation failed" in run.outcome["error"]["message"]


@pytest.mark.parametrize(
    "content",
    [{"type": "text", "text": "Hi"}, {"type": "thinking", "thinking": "1 ", "signature": "s"}],
    ids=["text", "thinking"],
)
def test_ev_determinism_anthropic_finished_blocks_in_message_start_fail_validation(
    adapter: EventsProcess, content: dict[str, Any]
) -> None:
    # anthropic-fold AM-START-CONTENT: finished blocks may arrive in message_start. Its schema
    # takes only tool_use blocks there: the same completion sent as a message_start with
    # its block fails (doStream rejects), sent as block events it completes.
    whole = start(content=[content], stop_reason="end_turn")
    run, rules = checked(adapter, MESSAGES, [whole, MESSAGE_STOP])
    assert rules == ["EV-ERROR-FRAME"]
    assert "Type validation failed" in run.outcome["error"]["message"]
    blocks = [
        start(),
        block(
            0,
            {
                **content,
                **({"text": ""} if "text" in content else {"thinking": "", "signature": ""}),
            },
        ),
        delta(
            0,
            {"type": "text_delta", "text": "Hi"}
            if "text" in content
            else {"type": "thinking_delta", "thinking": "1 "},
        ),
        stop(0),
        message_delta("end_turn"),
        MESSAGE_STOP,
    ]
    assert checked(adapter, MESSAGES, blocks)[1] == []


@pytest.mark.parametrize(
    ("reason", "received"),
    [("stop_sequence", "end_turn"), ("pause_turn", "end_turn"), ("refusal", "content_filter")],
)
def test_ev_stop_map_anthropic_stop_reasons_the_unified_vocabulary_lacks(
    adapter: EventsProcess, reason: str, received: str
) -> None:
    # mapAnthropicStopReason: stop_sequence and pause_turn are "stop", refusal is
    # "content-filter" (the raw value survives only in finishReason.raw).
    frames = hello_text(reason, sequence="END" if reason == "stop_sequence" else None)
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == ["EV-STOP-MAP"]
    turn = run.events[-1]["turn"]
    assert (turn["stop_reason"], turn["opaque"]["finishReason"]["raw"]) == (received, reason)


def test_ev_usage_anthropic_usage_is_reported_only_at_message_stop(adapter: EventsProcess) -> None:
    # The provider keeps message_start's and message_delta's usage to itself until the finish
    # part at message_stop: one Usage, whose frame is message_stop, where the reference has
    # one per usage snapshot (message_start, message_delta).
    frames = hello_text()
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == []
    ours = [(e["opaque"], e["usage"]["output_tokens"]) for e in run.events if e["type"] == "Usage"]
    reference = [
        (e["opaque"], e["usage"]["output_tokens"])
        for e in normalize(MESSAGES, frames)["events"]
        if e["type"] == "Usage"
    ]
    assert ours == [(MESSAGE_STOP, 5)]
    assert reference == [(frames[0], 1), (frames[5], 5)]


@pytest.mark.parametrize(
    "unknown",
    [{"type": "refold_unknown", "x": 1}, {"type": " "}, block(0, {"type": "refold_block"})],
    ids=["event type", "blank event type", "content block type"],
)
def test_ev_unknown_anthropic_unknown_types_are_an_error_part(
    adapter: EventsProcess, unknown: dict[str, Any]
) -> None:
    # The chunk schema is a closed discriminated union: an unknown event or block type is an
    # error part (AI_TypeValidationError), and the stream's outcome is error.
    frames = [start(), unknown, *hello_text()[1:]]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == ["EV-FRAME-COVER"] * 5 + ["EV-ERROR-FRAME"]
    assert "AI_TypeValidationError" in run.outcome["error"]["message"]


def test_ev_text_anthropic_text_in_a_content_block_start_is_dropped(adapter: EventsProcess) -> None:
    # A text block whose content_block_start carries text: the provider emits text-start
    # only, the text is lost (anthropic-fold AQ24, AM-TEXT-JOIN).
    frames = [
        start(),
        block(0, {"type": "text", "text": "Hi"}),
        stop(0),
        message_delta("end_turn"),
        MESSAGE_STOP,
    ]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == ["EV-FOLD-AGREES"]
    assert "TextDelta" not in run.kinds and run.events[-1]["turn"]["output_text"] == ""


def test_ev_fold_agrees_anthropic_a_delta_for_a_block_never_started_is_text(
    adapter: EventsProcess,
) -> None:
    # A text_delta is emitted as text-delta whatever its index: one for a block no
    # content_block_start opened reaches the text (the fold has no such block).
    frames = [start(), text(5, "x"), message_delta("end_turn"), MESSAGE_STOP]
    run, rules = checked(adapter, MESSAGES, frames)
    assert rules == ["EV-FOLD-AGREES"]
    assert run.events[-1]["turn"]["output_text"] == "x"
