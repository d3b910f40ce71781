"""Rule examples: opaque frames and what becomes Opaque (whole frames, cover, fallback,
event_type, unknown frames, reasoning, refusals, hosted tools)."""

from __future__ import annotations

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON
from refold.run.marks import rule

from ._expect import produced_by, turn_of
from ._frames import (
    CALL_KINDS,
    block_delta,
    block_start,
    block_stop,
    chat,
    chunk,
    content,
    finish,
    message,
    opaque_event,
    ping,
    role,
    text_block,
    text_delta,
    text_event,
    text_start,
    tool,
    usage_chunk,
)
from ._sources import SOURCE_PARAMS

_TRACE = {"x_trace": {"span": "s-1", "hops": [1, 2]}}
"""An unknown key: a re-serialised subset of a frame would lose it."""


def _produced_by(check: EventsCheck, source: str, frames: list[JSON]) -> list[tuple[JSON, JSON]]:
    """(type, opaque or payload) of every event but Completed, unstripped."""
    _, output = check.normalized(source, frames)
    return [
        (e.get("type"), e.get("opaque", e.get("payload")))
        for e in output["events"]
        if isinstance(e, dict) and e.get("type") != "Completed"
    ]


@rule("EV-OPAQUE-FRAME")
def test_each_chat_event_carries_the_whole_chunk_that_produced_it(check: EventsCheck) -> None:
    # §2: "JSON-equal to the whole frame that produced it, never a fragment or a
    # re-serialised subset ... A frame that produces several events is the opaque of each"
    text = {**content("Hi"), **_TRACE}
    opening = {**tool(0, call_id="call_1", name="f", arguments="{}"), **_TRACE}
    last = {**finish("tool_calls"), "usage": usage_chunk(2, 3)["usage"], **_TRACE}
    frames = [role(), text, opening, last, "[DONE]"]
    producer = {
        "TextDelta": text,
        "ToolCallStarted": opening,
        "ToolCallArgumentsDelta": opening,
        "ToolCallCompleted": last,
        "Usage": last,
    }
    produced = _produced_by(check, "openai-chat", frames)
    wrong = [
        kind
        for kind, frame in produced
        if frame != producer.get(str(kind), frame) or frame not in frames
    ]
    if wrong or {str(kind) for kind, _ in produced} < set(producer):
        raise check.fail(
            "an event's opaque is not the whole frame that produced it",
            expected=sorted(producer),
            received=wrong or sorted({str(kind) for kind, _ in produced}),
        )


@rule("EV-OPAQUE-FRAME")
def test_each_anthropic_event_carries_the_whole_event_that_produced_it(check: EventsCheck) -> None:
    # §2 EV-OPAQUE-FRAME; the payload of an Opaque is the whole frame too
    frames = [{**f, **_TRACE} for f in message(*text_block(0, "Hi"))]
    produced = _produced_by(check, "anthropic-messages", frames)
    wrong = [kind for kind, frame in produced if frame not in frames]
    texts = [frame for kind, frame in produced if kind == "TextDelta"]
    if wrong or texts != [frames[2]]:
        raise check.fail(
            "an event's opaque or payload is not the whole frame that produced it",
            received=wrong or [k for k, _ in produced],
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-FRAME-COVER")
def test_no_frame_vanishes(check: EventsCheck, source: str) -> None:
    # §2: "Every frame except [DONE] is the opaque/payload of at least one event"
    if source == "openai-chat":
        frames = chat(
            content(""), chunk({"x_new": 1}), content("Hi"), chunk({}), usage=usage_chunk(1, 1)
        )
    else:
        frames = message(ping(), *text_block(0, "Hi"), ping(), {"type": "x_future"})
    check.holds(source, frames)


_FALLBACKS = [
    pytest.param("openai-chat", chat(content("Hi")), 0, "message", id="chat-role-only"),
    pytest.param(
        "openai-chat", chat(content(""), content("Hi")), 1, "message", id="chat-empty-content"
    ),
    pytest.param("openai-chat", chat(content("Hi")), 2, "message", id="chat-finish-no-call"),
    pytest.param(
        "openai-chat",
        [*chat(content("Hi"))[:-1], {**chunk(), "choices": [], "usage": None}, "[DONE]"],
        3,
        "message",
        id="chat-usage-null",
    ),
    pytest.param(
        "anthropic-messages", message(ping(), *text_block(0, "Hi")), 1, "ping", id="anthropic-ping"
    ),
    pytest.param(
        "anthropic-messages",
        message(*text_block(0, "Hi")),
        3,
        "content_block_stop",
        id="anthropic-text-block-stop",
    ),
    pytest.param(
        "anthropic-messages",
        message(*text_block(0, "Hi"), output_tokens=None),
        4,
        "message_delta",
        id="anthropic-message-delta-without-usage",
    ),
]


@pytest.mark.parametrize(("source", "frames", "frame", "event_type"), _FALLBACKS)
@rule("EV-OPAQUE-FALLBACK")
def test_a_frame_producing_no_other_event_produces_one_opaque(
    check: EventsCheck, source: str, frames: list[JSON], frame: int, event_type: str
) -> None:
    # §2: "A frame that produces no other event produces one Opaque (role-only chunks,
    # empty deltas, finish chunks without calls, usage: null chunks, lifecycle events,
    # pings)"
    _, output = check.normalized(source, frames)
    received = produced_by(output, frames[frame])
    if received != [opaque_event(event_type)]:
        raise check.fail(
            f"frame {frame} produced no other event; expected one Opaque",
            expected=[opaque_event(event_type)],
            received=received,
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-OPAQUE-TYPE")
def test_opaque_event_type_is_message_for_chat_and_the_event_type_for_anthropic(
    check: EventsCheck, source: str
) -> None:
    # §2: "every Chat Opaque reads "message"; Responses and Anthropic events use their type"
    if source == "openai-chat":
        frames = chat(content(""), content("Hi"), usage=usage_chunk(1, 1))
    else:
        frames = message(ping(), *text_block(0, "Hi"), {"type": "x_future"})
    _, output = check.normalized(source, frames)
    found = [
        (e.get("event_type"), e.get("payload"))
        for e in output["events"]
        if isinstance(e, dict) and e.get("type") == "Opaque"
    ]
    wrong = [
        name
        for name, frame in found
        if name
        != (
            "message"
            if source == "openai-chat"
            else frame.get("type")
            if isinstance(frame, dict)
            else None
        )
    ]
    if wrong:
        raise check.fail(
            "an Opaque's event_type is not the SSE event name", received=[name for name, _ in found]
        )


_UNKNOWN = [
    pytest.param(
        "openai-chat",
        chat(chunk({"x_new_field": {"a": 1}}), content("Hi")),
        1,
        id="chat-unknown-delta-key",
    ),
    pytest.param(
        "openai-chat",
        chat({**chunk(), "choices": [], "x_event": "heartbeat"}, content("Hi")),
        1,
        id="chat-unknown-chunk",
    ),
    pytest.param(
        "anthropic-messages",
        message({"type": "x_future", "data": [1]}, *text_block(0, "Hi")),
        1,
        id="anthropic-unknown-type",
    ),
    pytest.param(
        "anthropic-messages",
        message(
            text_start(0),
            text_delta(0, "Hi"),
            block_delta(0, "x_new_delta", value="?"),
            block_stop(0),
        ),
        3,
        id="anthropic-unknown-delta-type",
    ),
]


@pytest.mark.parametrize(("source", "frames", "frame"), _UNKNOWN)
@rule("EV-UNKNOWN")
def test_unknown_frames_and_keys_never_raise_and_become_opaque(
    check: EventsCheck, source: str, frames: list[JSON], frame: int
) -> None:
    # §2: "Unknown frame types and unknown keys never raise; they produce Opaque"
    output = check.ends(source, frames, "completed")
    kinds = [e.get("type") for e in produced_by(output, frames[frame]) if isinstance(e, dict)]
    if "Opaque" not in kinds:
        raise check.fail(f"the unknown frame {frame} produced no Opaque", received=kinds)


@rule("EV-UNKNOWN")
def test_an_unknown_key_beside_text_keeps_the_text(check: EventsCheck) -> None:
    # §2 EV-UNKNOWN: an unknown key never raises (the frame's text still reaches its event)
    check.emits(
        "openai-chat",
        chat({**content("Hi"), "x_unknown": {"deep": [1]}}),
        [text_event("Hi")],
        kinds={"TextDelta"},
    )


@rule("EV-REASONING-OPAQUE")
def test_chat_reasoning_never_becomes_text(check: EventsCheck) -> None:
    # §2: "Reasoning (Chat reasoning, reasoning_content, reasoning_details ...) never
    # becomes TextDelta or output_text"
    frames = chat(
        chunk({"reasoning_content": "SECRET-1"}),
        chunk({"reasoning": "SECRET-2"}),
        chunk({"reasoning_details": [{"type": "reasoning.text", "text": "SECRET-3"}]}),
        content("Answer"),
    )
    check.emits("openai-chat", frames, [text_event("Answer")], kinds={"TextDelta"})
    if "SECRET" in str(turn_of(check, "openai-chat", frames).get("output_text")):
        raise check.fail("reasoning reached output_text")


@rule("EV-REASONING-OPAQUE")
def test_anthropic_thinking_and_signatures_never_become_text(check: EventsCheck) -> None:
    # §2 EV-REASONING-OPAQUE: "Anthropic thinking and signature deltas"
    frames = message(
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        block_delta(0, "thinking_delta", thinking="SECRET-1"),
        block_delta(0, "signature_delta", signature="SECRET-2"),
        block_stop(0),
        *text_block(1, "Answer"),
    )
    check.emits("anthropic-messages", frames, [text_event("Answer")], kinds={"TextDelta"})
    if "SECRET" in str(turn_of(check, "anthropic-messages", frames).get("output_text")):
        raise check.fail("reasoning reached output_text")


@rule("EV-REFUSAL-OPAQUE")
def test_chat_refusal_text_becomes_opaque_never_text(check: EventsCheck) -> None:
    # §2: "Refusal text (Chat delta.refusal ...) becomes Opaque, never TextDelta"
    frames = chat(chunk({"refusal": "I can't help"}), chunk({"refusal": " with that."}))
    _, output = check.normalized("openai-chat", frames)
    produced = [
        [e.get("type") for e in produced_by(output, frames[k]) if isinstance(e, dict)]
        for k in (1, 2)
    ]
    if any("Opaque" not in kinds or "TextDelta" in kinds for kinds in produced):
        raise check.fail(
            "a refusal chunk did not become Opaque (or became TextDelta)", received=produced
        )
    if turn_of(check, "openai-chat", frames).get("output_text") != "":
        raise check.fail("refusal text reached output_text")


@rule("EV-HOSTED-OPAQUE")
def test_anthropic_server_tools_are_opaque_never_tool_calls(check: EventsCheck) -> None:
    # §2: "Provider-hosted tool activity (... Anthropic server_tool_use and *_tool_result)
    # is Opaque, never ToolCall*"
    frames = message(
        block_start(
            0, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
        ),
        block_delta(0, "input_json_delta", partial_json='{"query":"paris weather"}'),
        block_stop(0),
        block_start(
            1,
            {
                "type": "web_search_tool_result",
                "tool_use_id": "srvtoolu_1",
                "content": [
                    {
                        "type": "web_search_result",
                        "url": "https://x.test",
                        "title": "x",
                        "encrypted_content": "e",
                    }
                ],
            },
        ),
        block_stop(1),
        *text_block(2, "Sunny."),
    )
    check.emits("anthropic-messages", frames, [], kinds=CALL_KINDS)
    if turn_of(check, "anthropic-messages", frames).get("tool_calls") != []:
        raise check.fail("a hosted tool reached T.tool_calls")
