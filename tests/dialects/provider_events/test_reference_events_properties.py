"""Properties of the reference adapters over the dialects' lossless splits (events.md §5).

A known completion (Chat) or Message (Anthropic) is split losslessly by the dialect's
strategies; the adapter's stripped turn must equal the completion's neutral view
(EV-FOLD-AGREES), so it is the same for every split of it (EV-DETERMINISM), and every
run keeps the invariants `_events_helpers.run` asserts (conservation, cover, order).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_reference_events_invariants import error_kind, run, turn

from refold.reference.anthropic import fold as anthropic_fold
from refold.reference.chat import FEATURES
from refold.reference.chat import Accumulator as ChatAccumulator
from refold.strategies.anthropic import FEATURES as ANTHROPIC_FEATURES
from refold.strategies.anthropic import event_splits, event_streams, messages
from refold.strategies.anthropic import families_for as anthropic_families
from refold.strategies.chat import chunk_splits, chunk_streams, completions, families_for

_SLOW = settings(deadline=None)  # a whole stream, run three times, on a loaded machine
_CHAT_FEATURES = frozenset(FEATURES) - {"choices"}  # EV-CHOICE0: one choice
_CHAT_STOP = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "content_filter": "content_filter",
}
_ANTHROPIC_STOP = {"end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal"}


def _object(arguments: str) -> dict[str, Any] | None:
    try:
        value = json.loads(arguments) if arguments else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _chat_view(completion: dict[str, Any]) -> dict[str, Any]:
    """The neutral view of a known chat.completion, written from §4.1 alone."""
    choice = completion["choices"][0]
    message = choice["message"]
    calls = [
        {
            "id": call["id"],
            "name": call["function"]["name"],
            "arguments": _object(call["function"]["arguments"]),
        }
        for call in message.get("tool_calls", [])
    ]
    reported = completion.get("usage")
    usage = {
        "input_tokens": None,
        "output_tokens": None,
        "cached_input_tokens": None,
        "reasoning_tokens": None,
    }
    if reported is not None:
        usage = {
            "input_tokens": reported.get("prompt_tokens"),
            "output_tokens": reported.get("completion_tokens"),
            "cached_input_tokens": reported.get("prompt_tokens_details", {}).get("cached_tokens"),
            "reasoning_tokens": reported.get("completion_tokens_details", {}).get(
                "reasoning_tokens"
            ),
        }
    stop = _CHAT_STOP.get(choice["finish_reason"], "other")
    return {
        "provider": "openai-chat",
        "model": completion["model"],
        "output_text": message.get("content") or "",
        "tool_calls": calls,
        "stop_reason": "tool_use" if calls and stop == "end_turn" else stop,
        "usage": usage,
    }


def _chat_outcome(completion: dict[str, Any], frames: list[Any]) -> str | None:
    """The error kind the stream must end with, or None for completed."""
    if any(isinstance(frame, dict) and isinstance(frame.get("error"), dict) for frame in frames):
        return "provider_error"  # EV-ERROR-FRAME (the split of an "error" finish)
    choice = completion["choices"][0]
    if choice["finish_reason"] in (None, "error"):
        return "truncated"  # EV-TRUNCATED
    if any(call["arguments"] is None for call in _chat_view(completion)["tool_calls"]):
        return "invalid_tool_arguments"  # EV-ARGS-INVALID
    return None


def _monotone(result: dict[str, Any]) -> bool:
    """EV-USAGE-MONOTONE: a reported output_tokens never decreases across Usage events."""
    counts = [
        e["usage"]["output_tokens"]
        for e in result["events"]
        if e["type"] == "Usage" and e["usage"]["output_tokens"] is not None
    ]
    return counts == sorted(counts)


def _stripped_turn(result: dict[str, Any]) -> dict[str, Any]:
    provider_turn = turn(result)
    return {k: v for k, v in provider_turn.items() if k not in ("opaque", "response_id")}


@st.composite
def _chat_streams(draw: st.DrawFn) -> tuple[dict[str, Any], list[Any], list[Any]]:
    completion = draw(completions(features=_CHAT_FEATURES, max_choices=1))
    families = families_for(_CHAT_FEATURES)
    first = draw(chunk_splits(completion, families=families))
    second = draw(chunk_splits(completion, families=families))
    done: list[Any] = ["[DONE]"] if draw(st.booleans()) else []  # EV-CHAT-DONE / -EOF
    return completion, first + done, second + done


@_SLOW
@given(_chat_streams())
def test_every_chat_split_of_a_completion_gives_its_neutral_turn(
    case: tuple[dict[str, Any], list[Any], list[Any]],
) -> None:
    # EV-FOLD-AGREES, EV-DETERMINISM, EV-TEXT-CONSERVE, EV-ARGS-CONSERVE, EV-TRUNCATED
    completion, first, second = case
    for frames in (first, second):
        result = run("openai-chat", frames)
        expected_error = _chat_outcome(completion, frames)
        assert error_kind(result) == expected_error
        assert _monotone(result)
        if expected_error is None:
            assert _stripped_turn(result) == _chat_view(completion)


def _anthropic_view(message: dict[str, Any]) -> dict[str, Any]:
    """The neutral view of a known Message, written from §4.3 alone."""
    content = message["content"]
    calls = [
        {"id": block["id"], "name": block["name"], "arguments": block["input"]}
        for block in content
        if block["type"] == "tool_use"
    ]
    reported = message.get("usage")
    usage = {
        "input_tokens": None,
        "output_tokens": None,
        "cached_input_tokens": None,
        "reasoning_tokens": None,
    }
    if reported is not None:
        buckets = [
            reported.get(key)
            for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
        ]
        present = [count for count in buckets if count is not None]
        usage = {
            "input_tokens": sum(present) if present else None,
            "output_tokens": reported.get("output_tokens"),
            "cached_input_tokens": buckets[2],
            "reasoning_tokens": None,
        }
    reason = message["stop_reason"]
    stop = reason if reason in _ANTHROPIC_STOP else "other"
    return {
        "provider": "anthropic-messages",
        "model": message["model"],
        "output_text": "".join(b["text"] for b in content if b["type"] == "text"),
        "tool_calls": calls,
        "stop_reason": "tool_use" if calls and stop == "end_turn" else stop,
        "usage": usage,
    }


@st.composite
def _anthropic_streams(draw: st.DrawFn) -> tuple[dict[str, Any], list[Any], list[Any]]:
    message = draw(messages(features=ANTHROPIC_FEATURES))
    families = anthropic_families(ANTHROPIC_FEATURES)
    return (
        message,
        draw(event_splits(message, families=families)),
        draw(event_splits(message, families=families)),
    )


@_SLOW
@given(_anthropic_streams())
def test_every_anthropic_split_of_a_message_gives_its_neutral_turn(
    case: tuple[dict[str, Any], list[Any], list[Any]],
) -> None:
    # EV-FOLD-AGREES, EV-DETERMINISM, EV-TEXT-CONSERVE, EV-ARGS-CONSERVE, EV-USAGE-LAST
    message, first, second = case
    view = _anthropic_view(message)
    ids = [call["id"] for call in view["tool_calls"]]
    # EV-IDS-SINGLE-USE: messages() may reuse a tool_use id, which no turn can carry
    expected_error = "unsupported" if len(set(ids)) < len(ids) else None
    results = [run("anthropic-messages", frames) for frames in (first, second)]
    assert [error_kind(result) for result in results] == [expected_error] * 2
    # No EV-USAGE-MONOTONE here: anthropic-fold's family 7 re-reports usage with any
    # earlier counts (AM-USAGE-REPLACE), so lossless streams may decrease (see the report).
    if expected_error is None:
        assert [_stripped_turn(result) for result in results] == [view, view]


def _parsed(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "id": c["id"],
            "name": c["function"]["name"],
            "arguments": _object(c["function"]["arguments"]),
        }
        for c in calls
    ]


@_SLOW
@given(chunk_streams(), st.booleans())
def test_any_chat_stream_keeps_the_invariants_and_agrees_with_the_chat_fold(
    chunks: list[Any], done: bool
) -> None:
    # EV-UNKNOWN (never raises), EV-TURN-OPAQUE, EV-FOLD-AGREES, and `run`'s invariants
    result = run("openai-chat", chunks + (["[DONE]"] if done else []))
    if result["outcome"]["outcome"] == "completed":
        provider_turn = turn(result)
        accumulator = ChatAccumulator()
        for chunk in chunks:
            accumulator.add(chunk)
        if done:
            accumulator.mark_done()  # LIFE-DONE
        assert provider_turn["opaque"] == accumulator.response()
        message = accumulator.response()["choices"][0]["message"]
        assert provider_turn["output_text"] == (message.get("content") or "")
        assert provider_turn["tool_calls"] == _parsed(message.get("tool_calls", []))


@_SLOW
@given(event_streams())
def test_any_anthropic_stream_keeps_the_invariants_and_agrees_with_the_fold(
    events: list[Any],
) -> None:
    # EV-UNKNOWN (never raises), EV-TURN-OPAQUE, EV-FOLD-AGREES, and `run`'s invariants
    # (the checker among them: blocks out of index order agree in arrival order, _ends)
    result = run("anthropic-messages", events)
    if result["outcome"]["outcome"] == "completed":
        provider_turn = turn(result)
        message = anthropic_fold(events)
        assert provider_turn["opaque"] == message
        assert sorted(provider_turn["output_text"]) == sorted(
            "".join(b["text"] for b in message["content"] if b["type"] == "text")
        )
        calls = [
            {"id": b["id"], "name": b["name"], "arguments": b["input"]}
            for b in message["content"]
            if b["type"] == "tool_use"
        ]
        assert sorted(provider_turn["tool_calls"], key=repr) == sorted(calls, key=repr)
