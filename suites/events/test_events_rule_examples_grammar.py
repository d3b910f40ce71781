"""Rule examples: the event grammar (events.md §2): variants, Completed, frame order,
determinism."""

from __future__ import annotations

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON
from refold.reference import events as reference_events
from refold.run.marks import rule

from . import _responses_frames as rs
from ._expect import emitted_at, produced_by
from ._frames import (
    chat,
    chunk,
    content,
    message,
    text_block,
    text_event,
    tool,
    tool_block,
    usage_chunk,
    usage_event,
)
from ._sources import SOURCE_PARAMS


def _rich(source: str) -> list[JSON]:
    """Text, one client call, usage: a stream producing every variant but Opaque's kin."""
    if source == "openai-chat":
        return chat(
            content("Hi"),
            tool(0, call_id="call_1", name="get_weather", arguments=""),
            tool(0, arguments='{"city":"Paris"}'),
            reason="tool_calls",
            usage=usage_chunk(5, 7),
        )
    if source == "openai-responses":
        text, call = (
            rs.text_response("Hi"),
            rs.call_response("call_1", "get_weather", '{"city":', '"Paris"}'),
        )
        moved = [
            {**frame, "output_index": 1} if "output_index" in frame else frame
            for frame in call[1:-1]
            if isinstance(frame, dict)
        ]
        return [
            *text[:-1],
            *moved,
            rs.terminal(
                output=[*text[-1]["response"]["output"], *call[-1]["response"]["output"]],
                usage=rs.usage_of(5, 7),
            ),
        ]
    return message(
        *text_block(0, "Hi"),
        *tool_block(1, "toolu_1", "get_weather", '{"city":', '"Paris"}'),
        reason="tool_use",
    )


def _cut(source: str) -> list[JSON]:
    """A stream that ends before its terminal (no finish reason / no message_stop)."""
    if source == "openai-chat":
        return chat(content("Hel"), content("lo"))[:-2]
    if source == "openai-responses":
        return rs.text_response("Hel", "lo", final=False)
    return message(*text_block(0, "Hel", "lo"), stop=False)


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-GRAMMAR")
def test_every_event_has_exactly_the_fields_of_its_variant(check: EventsCheck, source: str) -> None:
    # §2: "Every event has exactly the fields of its variant, of the JSON types above"
    check.holds(source, _rich(source))


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-COMPLETED-LAST")
def test_a_completed_stream_has_one_completed_and_it_is_last(
    check: EventsCheck, source: str
) -> None:
    # §2: "exactly one Completed, and it is the last event"
    check.holds(source, _rich(source))
    _, output = check.normalized(source, _rich(source))
    types = [e.get("type") for e in output["events"] if isinstance(e, dict)]
    if types.count("Completed") != 1 or types[-1:] != ["Completed"]:
        raise check.fail("expected exactly one Completed, last", received=types)


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-NO-COMPLETED-ON-ERROR")
def test_a_stream_ending_in_error_has_no_completed(check: EventsCheck, source: str) -> None:
    # §2: "A stream with outcome `error` has no Completed"
    check.ends(source, _cut(source), "error")
    check.emits(source, _cut(source), [], kinds={"Completed"})


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-FRAME-ORDER")
def test_every_event_is_emitted_while_its_own_frame_is_read(
    check: EventsCheck, source: str
) -> None:
    # §2: "all events a frame produces are emitted before the next frame is read (no
    # look-ahead)"; no fragment here waits for a call id (the EV-ARGS-BUFFER exception)
    frames = _rich(source)
    _, output = check.normalized(source, frames)
    events, emitted = output["events"], emitted_at(output)
    misplaced = [
        (number, e.get("type"), emitted[number] if number < len(emitted) else None)
        for number, e in enumerate(events)
        if isinstance(e, dict)
        and e.get("opaque", e.get("payload")) in frames
        and (
            number >= len(emitted)
            or emitted[number] >= len(frames)
            or frames[emitted[number]] != e.get("opaque", e.get("payload"))
        )
    ]
    if misplaced or emitted != sorted(emitted):
        raise check.fail(
            "events were not emitted while the frame that produced them was "
            "read: (event, type, emitted at frame)",
            received=misplaced,
        )


@rule("EV-FRAME-ORDER")
def test_a_chunks_events_follow_the_order_of_its_fields(check: EventsCheck) -> None:
    # §2: "in the order of the frame's fields as the mapping tables list them": §4.1
    # lists delta.content before usage
    both = {**content("Hi"), "usage": usage_chunk(3, 1)["usage"]}
    frames = chat(both)
    _, output = check.normalized("openai-chat", frames)
    received = [
        e
        for e in produced_by(output, both)
        if isinstance(e, dict) and e.get("type") in ("TextDelta", "Usage")
    ]
    expected = [text_event("Hi"), usage_event(3, 1)]
    if received != expected:
        raise check.fail(
            "the chunk's events are out of the order of its fields",
            expected=expected,
            received=received,
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-DETERMINISM")
def test_the_same_frames_give_the_same_events(check: EventsCheck, source: str) -> None:
    # §2: "The same frames give the same events"
    frames = _rich(source)
    _, first = check.normalized(source, frames)
    _, second = check.normalized(source, frames)
    if reference_events.strip(first["events"]) != reference_events.strip(second["events"]):
        raise check.fail(
            "two runs over the same frames emitted different events",
            expected=reference_events.strip(first["events"]),
            received=reference_events.strip(second["events"]),
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-DETERMINISM")
def test_re_splitting_text_and_arguments_never_changes_the_stripped_turn(
    check: EventsCheck, source: str
) -> None:
    # §2: "re-splitting text or argument fragments across frames ... changes the number
    # of deltas, never the strip of T"
    if source == "openai-chat":

        def split(texts: list[str], parts: list[str]) -> list[JSON]:
            first, *rest = parts
            return chat(
                *(content(t) for t in texts),
                tool(0, call_id="call_1", name="get_weather", arguments=first),
                *(tool(0, arguments=p) for p in rest),
                reason="tool_calls",
            )
    else:

        def split(texts: list[str], parts: list[str]) -> list[JSON]:
            return message(
                *text_block(0, *texts),
                *tool_block(1, "toolu_1", "get_weather", *parts),
                reason="tool_use",
            )

    check.deterministic(
        source,
        [
            split(["Hello, wörld"], ['{"city":"Paris"}']),
            split(["H", "ello, w", "ö", "rld"], ['{"ci', 'ty":', '"Par', 'is"}']),
        ],
    )


@rule("EV-GRAMMAR")
def test_the_opaque_of_a_chunk_with_unknown_keys_has_exactly_its_fields(check: EventsCheck) -> None:
    # §1: Opaque is {"type", "event_type", "payload"}, nothing else (the unknown keys
    # stay inside the payload)
    frames = chat(chunk({"role": "assistant", "x_vendor": {"k": 1}}))
    check.holds("openai-chat", frames)
