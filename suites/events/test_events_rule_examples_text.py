"""Rule examples: public text (EV-TEXT, EV-NO-EMPTY-DELTA, EV-TEXT-CONSERVE)."""

from __future__ import annotations

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON
from refold.run.marks import rule

from ._expect import turn_of
from ._frames import (
    call_stream,
    chat,
    content,
    message,
    text_block,
    text_event,
    text_stream,
    tool,
    tool_block,
)
from ._sources import SOURCE_PARAMS

_TEXT = {"TextDelta"}
_DELTAS = {"TextDelta", "ToolCallArgumentsDelta"}


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-TEXT")
def test_each_text_fragment_becomes_one_text_delta_verbatim(
    check: EventsCheck, source: str
) -> None:
    # §2: "Each non-empty public text fragment becomes one TextDelta whose delta is the
    # fragment, verbatim": whitespace, newlines, astral code points untouched
    fragments = ("Hel", "lo ", "\n\n", " wörld 😀", "\t")
    check.emits(
        source, text_stream(source, *fragments), [text_event(f) for f in fragments], kinds=_TEXT
    )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-TEXT")
def test_fragments_are_never_accumulated_or_merged(check: EventsCheck, source: str) -> None:
    # §2 EV-TEXT: one TextDelta per fragment, the fragment itself (never the text so far)
    check.emits(
        source,
        text_stream(source, "a", "b", "c"),
        [text_event("a"), text_event("b"), text_event("c")],
        kinds=_TEXT,
    )


def _no_empty_delta(check: EventsCheck, source: str, frames: list[JSON]) -> None:
    """No TextDelta or ToolCallArgumentsDelta of the adapter has an empty delta."""
    __tracebackhide__ = True
    _, output = check.normalized(source, frames)
    empty = [
        n
        for n, e in enumerate(output["events"])
        if isinstance(e, dict) and e.get("type") in _DELTAS and e.get("delta") == ""
    ]
    if empty:
        raise check.fail(f"events {empty} have an empty delta", received=empty)


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-NO-EMPTY-DELTA")
def test_an_empty_text_fragment_emits_no_empty_text_delta(check: EventsCheck, source: str) -> None:
    # §2: "No TextDelta or ToolCallArgumentsDelta has an empty delta"
    _no_empty_delta(check, source, text_stream(source, "Hi", "", "!"))


@rule("EV-NO-EMPTY-DELTA")
def test_an_empty_chat_argument_fragment_emits_no_empty_delta(check: EventsCheck) -> None:
    # §2 EV-NO-EMPTY-DELTA; the first fragment's arguments are "" (what OpenAI sends)
    _no_empty_delta(
        check,
        "openai-chat",
        call_stream("openai-chat", "call_1", "get_weather", "", '{"city":"Paris"}', ""),
    )


@rule("EV-NO-EMPTY-DELTA")
def test_an_empty_partial_json_emits_no_empty_delta(check: EventsCheck) -> None:
    # §2 EV-NO-EMPTY-DELTA; Anthropic opens every tool input with partial_json ""
    _no_empty_delta(
        check,
        "anthropic-messages",
        message(
            *tool_block(0, "toolu_1", "get_weather", "", '{"city":"Paris"}'), reason="tool_use"
        ),
    )


def _conserves(check: EventsCheck, source: str, frames: list[JSON]) -> None:
    """T.output_text is the adapter's own TextDelta deltas joined."""
    __tracebackhide__ = True
    turn = turn_of(check, source, frames)
    _, output = check.normalized(source, frames)
    joined = "".join(
        str(e.get("delta"))
        for e in output["events"]
        if isinstance(e, dict) and e.get("type") == "TextDelta"
    )
    if turn.get("output_text") != joined:
        raise check.fail(
            "output_text is not the concatenation of the TextDelta deltas",
            expected=joined,
            received=turn.get("output_text"),
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-TEXT-CONSERVE")
def test_output_text_is_the_concatenation_of_the_text_deltas(
    check: EventsCheck, source: str
) -> None:
    # §2: "T.output_text == concatenation of every TextDelta.delta"
    _conserves(check, source, text_stream(source, "Hel", "", "lo, ", "wörld"))


@rule("EV-TEXT-CONSERVE")
def test_output_text_joins_the_text_of_every_anthropic_text_block(check: EventsCheck) -> None:
    # §2 EV-TEXT-CONSERVE, over two text blocks with a call between them
    _conserves(
        check,
        "anthropic-messages",
        message(
            *text_block(0, "Let me check. "),
            *tool_block(1, "toolu_1", "get_weather", "{}"),
            *text_block(2, "Done."),
            reason="tool_use",
        ),
    )


@rule("EV-TEXT-CONSERVE")
def test_chat_output_text_joins_text_around_a_call(check: EventsCheck) -> None:
    # §2 EV-TEXT-CONSERVE
    _conserves(
        check,
        "openai-chat",
        chat(
            content("4"),
            tool(0, call_id="call_1", name="f", arguments="{}"),
            content("2"),
            reason="tool_calls",
        ),
    )
