"""Rule examples: the turn (stop reason, provider/model/response id, its opaque, and
agreement with the dialect fold)."""

from __future__ import annotations

import json

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON, JSONObject
from refold.reference import anthropic as anthropic_reference
from refold.reference import responses as responses_reference
from refold.reference.chat import fold as chat_fold
from refold.run.marks import rule

from . import _responses_frames as rs
from ._calls import two_calls
from ._expect import turn_of
from ._frames import (
    CHAT_ID,
    CHAT_MODEL,
    MESSAGE_ID,
    MESSAGE_MODEL,
    block_delta,
    block_start,
    block_stop,
    call_stream,
    chat,
    chunk,
    content,
    message,
    text_block,
    text_stream,
    tool,
    tool_block,
)
from ._sources import SOURCE_PARAMS

_STOPS = [
    pytest.param("openai-chat", "stop", "end_turn", id="chat-stop"),
    pytest.param("openai-chat", "length", "max_tokens", id="chat-length"),
    pytest.param("openai-chat", "content_filter", "content_filter", id="chat-content-filter"),
    pytest.param("openai-chat", "tool_calls", "tool_use", id="chat-tool-calls"),
    pytest.param("openai-chat", "function_call", "tool_use", id="chat-function-call"),
    pytest.param("openai-chat", "insufficient_system_resource", "other", id="chat-unmapped"),
    pytest.param("anthropic-messages", "end_turn", "end_turn", id="anthropic-end-turn"),
    pytest.param("anthropic-messages", "max_tokens", "max_tokens", id="anthropic-max-tokens"),
    pytest.param(
        "anthropic-messages", "stop_sequence", "stop_sequence", id="anthropic-stop-sequence"
    ),
    pytest.param("anthropic-messages", "pause_turn", "pause_turn", id="anthropic-pause-turn"),
    pytest.param("anthropic-messages", "refusal", "refusal", id="anthropic-refusal"),
    pytest.param(
        "anthropic-messages", "model_context_window_exceeded", "other", id="anthropic-unmapped"
    ),
]


def _stopped(source: str, reason: str) -> list[JSON]:
    if source == "openai-chat":
        return chat(content("Hi"), reason=reason)
    return message(*text_block(0, "Hi"), reason=reason)


def _field(check: EventsCheck, turn: JSONObject, key: str, expected: JSON) -> None:
    __tracebackhide__ = True
    if turn.get(key) != expected:
        raise check.fail(
            f"T.{key} is {turn.get(key)!r}; expected {expected!r}",
            expected=expected,
            received=turn.get(key),
        )


@pytest.mark.parametrize(("source", "reason", "stop"), _STOPS)
@rule("EV-STOP-MAP")
def test_the_stop_reason_maps_through_the_tables_and_unmapped_is_other(
    check: EventsCheck, source: str, reason: str, stop: str
) -> None:
    # §2: "T.stop_reason comes from the provider's terminal data through the tables of
    # §4; an unmapped value is other"
    _field(check, turn_of(check, source, _stopped(source, reason)), "stop_reason", stop)


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-STOP-TOOL")
def test_an_end_turn_with_tool_calls_is_tool_use(check: EventsCheck, source: str) -> None:
    # §2: "When T.tool_calls is non-empty and the mapped reason is end_turn, the stop
    # reason is tool_use"
    reason = "stop" if source == "openai-chat" else "end_turn"
    frames = call_stream(source, "call_1", "get_weather", '{"city":"Paris"}', reason=reason)
    _field(check, turn_of(check, source, frames), "stop_reason", "tool_use")


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-TURN-FIELDS")
def test_the_turn_names_the_provider_model_and_response_id(check: EventsCheck, source: str) -> None:
    # §2: "T.provider is the adapter's declared identifier; T.model is the model the
    # provider reported ...; T.response_id is the provider's response id"; an adapter
    # declaring no provider is held to the source dialect's name, as the checker does
    turn = turn_of(check, source, text_stream(source, "Hi"))
    model, response_id = {
        "openai-chat": (CHAT_MODEL, CHAT_ID),
        "openai-responses": (rs.RESPONSE_MODEL, rs.RESPONSE_ID),
    }.get(source, (MESSAGE_MODEL, MESSAGE_ID))
    _field(check, turn, "provider", check.target.provider or source)
    _field(check, turn, "model", model)
    _field(check, turn, "response_id", response_id)


@rule("EV-TURN-FIELDS")
def test_the_chat_model_and_id_are_those_of_the_first_chunk_that_has_them(
    check: EventsCheck,
) -> None:
    # §2 EV-TURN-FIELDS through chat-fold ENV-MODEL and ENV-ID: "the first non-blank
    # chunk id / model"; later chunks name other values
    later = {**content("!"), "id": "chatcmpl-later", "model": "gpt-other"}
    turn = turn_of(check, "openai-chat", chat(content("Hi"), later))
    _field(check, turn, "model", CHAT_MODEL)
    _field(check, turn, "response_id", CHAT_ID)


def _dialect_fold(source: str, frames: list[JSON]) -> JSON:
    if source == "openai-chat":
        return chat_fold([f for f in frames if isinstance(f, dict)])
    if source == "openai-responses":
        return responses_reference.fold(frames)
    return anthropic_reference.fold(frames)


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-TURN-OPAQUE")
def test_the_turns_opaque_is_the_dialect_fold_of_every_frame(
    check: EventsCheck, source: str
) -> None:
    # §2: "T.opaque is the dialect fold of all frames ... Checked only when the adapter
    # claims events.turn_opaque" (the rule's feature: unclaimed, the test is not run)
    frames = two_calls(source)
    _field(check, turn_of(check, source, frames), "opaque", _dialect_fold(source, frames))


def _folded_view(source: str, frames: list[JSON]) -> tuple[str, list[JSON]]:
    """The dialect fold's public text and calls, arguments parsed (EV-FOLD-AGREES)."""
    folded = _dialect_fold(source, frames)
    assert isinstance(folded, dict)
    if source == "openai-chat":
        said = folded["choices"][0]["message"]
        calls = [
            {
                "id": c["id"],
                "name": c["function"]["name"],
                "arguments": json.loads(c["function"]["arguments"] or "{}"),
            }
            for c in said.get("tool_calls") or []
        ]
        return said.get("content") or "", calls
    if source == "openai-responses":
        output = folded["output"]
        return (
            "".join(
                part["text"]
                for item in output
                if item["type"] == "message"
                for part in item["content"]
                if part["type"] == "output_text"
            ),
            [
                {
                    "id": i["call_id"],
                    "name": i["name"],
                    "arguments": json.loads(i["arguments"] or "{}"),
                }
                for i in output
                if i["type"] == "function_call"
            ],
        )
    blocks = folded["content"]
    return (
        "".join(b["text"] for b in blocks if b["type"] == "text"),
        [
            {"id": b["id"], "name": b["name"], "arguments": b["input"]}
            for b in blocks
            if b["type"] == "tool_use"
        ],
    )


def _agreeing(source: str) -> list[JSON]:
    """Text around reasoning and two calls: what the fold keeps and drops matters."""
    if source == "openai-chat":
        return chat(
            chunk({"reasoning_content": "hidden"}),
            content("Checking "),
            tool(0, call_id="call_a", name="get_weather", arguments='{"city":"Paris"}'),
            tool(1, call_id="call_b", name="get_time", arguments=""),
            content("now."),
            reason="tool_calls",
        )
    if source == "openai-responses":
        return _agreeing_responses()
    return message(
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        block_delta(0, "thinking_delta", thinking="hidden"),
        block_stop(0),
        *text_block(1, "Checking ", "now."),
        *tool_block(2, "toolu_a", "get_weather", '{"city":', '"Paris"}'),
        *tool_block(3, "toolu_b", "get_time"),
        reason="tool_use",
    )


def _agreeing_responses() -> list[JSON]:
    reasoning = {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "hidden"}],
    }
    said = rs.message_item("msg_1", "Checking now.")
    first = rs.call_item("call_a", "get_weather", '{"city":"Paris"}', item_id="fc_a")
    second = rs.call_item("call_b", "get_time", "", item_id="fc_b")
    return [
        rs.created(),
        rs.added(0, {**reasoning, "summary": []}),
        {
            "type": "response.reasoning_summary_text.delta",
            "item_id": "rs_1",
            "output_index": 0,
            "summary_index": 0,
            "delta": "hidden",
        },
        rs.item_done(0, reasoning),
        rs.added(1, rs.message_item("msg_1")),
        rs.text_delta(1, "Checking "),
        rs.text_delta(1, "now."),
        rs.item_done(1, said),
        rs.added(2, {**first, "arguments": ""}),
        rs.args_delta(2, '{"city":"Paris"}', item_id="fc_a"),
        rs.item_done(2, first),
        rs.item_done(3, second),
        rs.terminal(output=[reasoning, said, first, second]),
    ]


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-FOLD-AGREES")
def test_the_turn_never_contradicts_the_dialect_fold(check: EventsCheck, source: str) -> None:
    # §2: "output_text == the fold's public text of choice 0 / all text blocks;
    # T.tool_calls == the fold's calls with arguments parsed"
    frames = _agreeing(source)
    text, calls = _folded_view(source, frames)
    turn = turn_of(check, source, frames)
    _field(check, turn, "output_text", text)
    _field(check, turn, "tool_calls", calls)
