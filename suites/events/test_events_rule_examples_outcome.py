"""Rule examples: how a stream ends (truncated, provider error frames, choice 0)."""

from __future__ import annotations

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON, JSONObject
from refold.reference import events as reference_events
from refold.run.marks import rule

from ._expect import produced_by, turn_of
from ._frames import (
    DONE,
    chunk,
    content,
    finish,
    message,
    message_delta,
    message_start,
    opaque_event,
    role,
    text_block,
    text_delta,
    text_event,
    text_start,
    tool,
)

_TRUNCATED = [
    pytest.param(
        "openai-chat", [role(), content("Hel"), content("lo")], id="chat-text-without-finish"
    ),
    pytest.param("openai-chat", [role(), content("Hi"), DONE], id="chat-done-without-finish"),
    pytest.param(
        "openai-chat",
        [role(), tool(0, call_id="call_1", name="f", arguments='{"a"')],
        id="chat-call-without-finish",
    ),
    pytest.param(
        "anthropic-messages",
        [message_start(), text_start(0), text_delta(0, "Hel")],
        id="anthropic-cut-in-a-block",
    ),
    pytest.param(
        "anthropic-messages",
        message(*text_block(0, "Hi"), stop=False),
        id="anthropic-message-delta-without-stop",
    ),
]


@pytest.mark.parametrize(("source", "frames"), _TRUNCATED)
@rule("EV-TRUNCATED")
def test_a_stream_without_its_terminal_is_truncated(
    check: EventsCheck, source: str, frames: list[JSON]
) -> None:
    # §2: "A stream that ends without the dialect's terminal (Chat: no finish_reason on
    # choice 0; Anthropic: no message_stop) has outcome error (truncated)"
    check.ends(source, frames, "error", kind="truncated")


def _errored(source: str) -> tuple[list[JSON], int]:
    """Text, then a provider error frame (number returned), then frames it hides."""
    error: JSONObject
    if source == "openai-chat":
        error = {"error": {"message": "overloaded", "type": "server_error", "code": 529}}
        return [role(), content("Hel"), error, content("lo"), finish(), DONE], 2
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    return [
        message_start(),
        text_start(0),
        text_delta(0, "Hel"),
        error,
        text_delta(0, "lo"),
        {"type": "content_block_stop", "index": 0},
        message_delta(),
        {"type": "message_stop"},
    ], 3


_ERROR_TYPES = {"openai-chat": "message", "anthropic-messages": "error"}


@pytest.mark.parametrize("source", sorted(_ERROR_TYPES))
@rule("EV-ERROR-FRAME")
def test_a_provider_error_frame_is_one_opaque_and_a_provider_error(
    check: EventsCheck, source: str
) -> None:
    # §2: "A provider error frame (Chat chunk with a top-level error object; Anthropic
    # error) produces one Opaque for that frame and the outcome error (provider_error)"
    frames, error = _errored(source)
    output = check.ends(source, frames, "error", kind="provider_error")
    received = produced_by(output, frames[error])
    if received != [opaque_event(_ERROR_TYPES[source])]:
        raise check.fail(
            "the error frame did not produce exactly one Opaque",
            expected=[opaque_event(_ERROR_TYPES[source])],
            received=received,
        )


@pytest.mark.parametrize("source", sorted(_ERROR_TYPES))
@rule("EV-NOTHING-AFTER-ERROR")
def test_no_event_follows_the_error_frames_events(check: EventsCheck, source: str) -> None:
    # §2: "No event follows the error frame's events; later frames are not normalised"
    frames, error = _errored(source)
    _, output = check.normalized(source, frames)
    events = output["events"]
    last = max(
        (
            n
            for n, e in enumerate(events)
            if isinstance(e, dict) and e.get("payload", e.get("opaque")) == frames[error]
        ),
        default=len(events),
    )
    later = reference_events.strip(events[last + 1 :])
    if later:
        raise check.fail("events follow the provider error frame's events", received=later)


def _two_choices() -> list[JSON]:
    def both(first: str, second: str) -> JSON:
        return {
            **chunk(),
            "choices": [
                {"index": 0, "delta": {"content": first}},
                {"index": 1, "delta": {"content": second}},
            ],
        }

    ending = {
        **chunk(),
        "choices": [
            {"index": 0, "delta": {}, "finish_reason": "stop"},
            {"index": 1, "delta": {}, "finish_reason": "stop"},
        ],
    }
    return [role(), both("Yes", "No"), both("!", "?"), ending, DONE]


@rule("EV-CHOICE0")
def test_only_choice_0_is_normalised_or_the_stream_is_refused(check: EventsCheck) -> None:
    # §2: "Only choice 0 of a Chat stream is normalised; an adapter may refuse n > 1
    # streams (outcome error, unsupported)": either is correct
    frames = _two_choices()
    _, output = check.normalized("openai-chat", frames)
    outcome = output.get("outcome")
    if isinstance(outcome, dict) and outcome.get("outcome") == "error":
        check.ends("openai-chat", frames, "error", kind="unsupported")
        return
    texts = [e for e in output["events"] if isinstance(e, dict) and e.get("type") == "TextDelta"]
    if reference_events.strip(texts) != [text_event("Yes"), text_event("!")]:
        raise check.fail(
            "text of a choice other than 0 was normalised",
            expected=[text_event("Yes"), text_event("!")],
            received=reference_events.strip(texts),
        )
    if turn_of(check, "openai-chat", frames).get("output_text") != "Yes!":
        raise check.fail("output_text holds text of a choice other than 0")
