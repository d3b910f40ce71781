"""Rule examples: usage (snapshots, last wins, unreported, monotone output counts)."""

from __future__ import annotations

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON
from refold.run.marks import rule

from . import _responses_frames as rs
from ._expect import turn_of
from ._frames import (
    NULL_USAGE,
    chat,
    chunk,
    content,
    message,
    message_delta,
    message_start,
    message_stop,
    text_block,
    text_stream,
    usage_chunk,
    usage_event,
)
from ._sources import SOURCE_PARAMS

_USAGE = {"Usage"}


@rule("EV-USAGE")
def test_a_chat_usage_object_becomes_one_normalised_usage(check: EventsCheck) -> None:
    # §2: "Each reported usage object becomes one Usage whose usage is the whole
    # normalised snapshot"; §4.1's mapping of prompt/completion/cached/reasoning tokens
    frames = chat(content("Hi"), usage=usage_chunk(5, 7, cached=2, reasoning=3))
    check.emits("openai-chat", frames, [usage_event(5, 7, cached=2, reasoning=3)], kinds=_USAGE)


@rule("EV-USAGE")
def test_a_null_chat_usage_emits_no_usage(check: EventsCheck) -> None:
    # §2 EV-USAGE: "a usage: null emits nothing"
    frames = [
        *chat({**content("Hi"), "usage": None})[:-1],
        {**chunk(), "choices": [], "usage": None},
        "[DONE]",
    ]
    check.emits("openai-chat", frames, [], kinds=_USAGE)


@rule("EV-USAGE")
def test_anthropic_usage_is_a_cumulative_snapshot_never_an_increment(check: EventsCheck) -> None:
    # §2 EV-USAGE: "the whole normalised snapshot, never an increment (NE-27)";
    # message_delta's output_tokens 9 is the count so far, and message_start's input
    # count stays in the snapshot
    check.emits(
        "anthropic-messages",
        message(*text_block(0, "Hi"), output_tokens=9),
        [usage_event(10, 1), usage_event(10, 9)],
        kinds=_USAGE,
    )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-USAGE-LAST")
def test_the_turns_usage_is_the_last_usage_event(check: EventsCheck, source: str) -> None:
    # §2: "T.usage equals the last Usage's usage (NE-28)"
    frames = (
        chat(content("Hi"), usage=usage_chunk(5, 7, cached=2))
        if source == "openai-chat"
        else message(*text_block(0, "Hi"))
    )
    if source == "openai-responses":
        frames = rs.text_response("Hi")
        frames[-1]["response"]["usage"] = rs.usage_of(5, 7, cached=2)
    _, output = check.normalized(source, frames)
    usages = [
        e.get("usage") for e in output["events"] if isinstance(e, dict) and e.get("type") == "Usage"
    ]
    turn = turn_of(check, source, frames)
    if usages and turn.get("usage") != usages[-1]:
        raise check.fail(
            "T.usage is not the last Usage's usage",
            expected=usages[-1] if usages else None,
            received=turn.get("usage"),
        )


@rule("EV-USAGE-UNREPORTED")
def test_a_turn_without_usage_has_four_null_counters(check: EventsCheck) -> None:
    # §2: "With no Usage, T.usage has all four counters null"
    frames = text_stream("openai-chat", "Hi")
    check.emits("openai-chat", frames, [], kinds=_USAGE)
    turn = turn_of(check, "openai-chat", frames)
    if turn.get("usage") != NULL_USAGE:
        raise check.fail(
            "a turn with no Usage does not have four null counters",
            expected=NULL_USAGE,
            received=turn.get("usage"),
        )


def _output_counts(check: EventsCheck, source: str, frames: list[JSON]) -> list[JSON]:
    _, output = check.normalized(source, frames)
    return [
        e["usage"].get("output_tokens")
        for e in output["events"]
        if isinstance(e, dict) and e.get("type") == "Usage" and isinstance(e.get("usage"), dict)
    ]


@rule("EV-USAGE-MONOTONE")
def test_anthropic_output_tokens_never_decrease_across_usage_events(check: EventsCheck) -> None:
    # §2: "Across Usage events, a reported output_tokens never decreases (Anthropic's
    # counts are cumulative)"; message_start's provisional 1, then message_delta's 9
    frames = [
        message_start(10, 1),
        *text_block(0, "Hi"),
        message_delta("end_turn", 9),
        message_stop(),
    ]
    counts = [c for c in _output_counts(check, "anthropic-messages", frames) if c is not None]
    if counts != sorted(counts):
        raise check.fail("a reported output_tokens decreased across Usage events", received=counts)


@rule("EV-USAGE-MONOTONE")
def test_chat_usage_reported_on_every_chunk_never_decreases(check: EventsCheck) -> None:
    # §2 EV-USAGE-MONOTONE; some gateways attach the running usage to every chunk
    frames = chat(
        {**content("Hel"), "usage": usage_chunk(5, 1)["usage"]},
        {**content("lo"), "usage": usage_chunk(5, 2)["usage"]},
        usage=usage_chunk(5, 2),
    )
    counts = [c for c in _output_counts(check, "openai-chat", frames) if c is not None]
    if counts != sorted(counts):
        raise check.fail("a reported output_tokens decreased across Usage events", received=counts)
