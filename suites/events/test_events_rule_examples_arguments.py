"""Rule examples: tool-call arguments (deltas, buffering, conservation, parsing, `""`,
invalid arguments)."""

from __future__ import annotations

import json

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON
from refold.run.marks import rule

from ._calls import completed_calls, two_calls
from ._frames import (
    CALL_KINDS,
    args_event,
    call_stream,
    chat,
    completed_event,
    message,
    tool,
    tool_block,
)
from ._sources import SOURCE_PARAMS

_DELTAS = {"ToolCallArgumentsDelta"}
_COMPLETED = {"ToolCallCompleted"}


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-ARGS-DELTA")
def test_each_appended_argument_fragment_becomes_one_delta_verbatim(
    check: EventsCheck, source: str
) -> None:
    # §2: "Each non-empty argument fragment the dialect fold appends becomes one
    # ToolCallArgumentsDelta"
    fragments = ('{"ci', 'ty": "Pa', "ris\\u00e9", " ", '"}')
    check.emits(
        source,
        call_stream(source, "call_1", "get_weather", *fragments),
        [args_event("call_1", f) for f in fragments],
        kinds=_DELTAS,
    )


@rule("EV-ARGS-BUFFER")
def test_fragments_before_the_call_id_are_released_right_after_its_start(
    check: EventsCheck,
) -> None:
    # §2: "Fragments that arrive before the call's id is known (chat-fold split family 5)
    # are held and released, in order, right after its ToolCallStarted, each with the
    # frame it arrived in as opaque"
    early = tool(0, arguments='{"city"')
    later = tool(0, arguments=":")
    naming = tool(0, call_id="call_1", name="get_weather", arguments='"Paris"}')
    frames = chat(early, later, naming, reason="tool_calls")
    _, output = check.normalized("openai-chat", frames)
    # the Started's own opaque is EV-OPAQUE-FRAME's business, not this rule's
    calls = [
        (
            e.get("type"),
            e.get("id"),
            e.get("delta"),
            None if e.get("type") == "ToolCallStarted" else e.get("opaque"),
        )
        for e in output["events"]
        if isinstance(e, dict) and e.get("type") in CALL_KINDS
    ]
    expected = [
        ("ToolCallStarted", "call_1", None, None),
        ("ToolCallArgumentsDelta", "call_1", '{"city"', early),
        ("ToolCallArgumentsDelta", "call_1", ":", later),
        ("ToolCallArgumentsDelta", "call_1", '"Paris"}', naming),
    ]
    if calls[:4] != expected:
        raise check.fail(
            "buffered fragments were not released in order right after the "
            "call's start, each with the frame it arrived in",
            expected=[c[:3] for c in expected],
            received=[c[:3] for c in calls],
        )


def _parsed(text: str) -> JSON:
    """The joined deltas parsed (`""` -> `{}`); text that is no JSON reads as itself, so
    it equals no completed arguments object."""
    try:
        parsed: JSON = json.loads(text or "{}")
    except ValueError:
        return text
    return parsed


def _conserved(check: EventsCheck, source: str, frames: list[JSON]) -> None:
    """Per call, its deltas joined and parsed ("" -> {}) are its completed arguments."""
    __tracebackhide__ = True
    _, output = check.normalized(source, frames)
    events = output["events"]
    joined: dict[object, str] = {}
    for e in events:
        if isinstance(e, dict) and e.get("type") == "ToolCallArgumentsDelta":
            joined[e.get("id")] = joined.get(e.get("id"), "") + str(e.get("delta"))
    calls = completed_calls(events)
    wrong = [
        (c.get("id"), joined.get(c.get("id")))
        for c in calls
        if c.get("id") in joined and _parsed(joined[c.get("id")]) != c.get("arguments")
    ]
    if wrong:
        raise check.fail("a call's deltas joined are not its completed arguments", received=wrong)


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-ARGS-CONSERVE")
def test_a_calls_deltas_joined_and_parsed_are_its_arguments(
    check: EventsCheck, source: str
) -> None:
    # §2: "For each call, the concatenation of its deltas, parsed, equals
    # ToolCallCompleted.call.arguments"
    _conserved(check, source, two_calls(source))


@rule("EV-ARGS-CONSERVE")
def test_a_chat_re_send_is_not_a_delta(check: EventsCheck) -> None:
    # §2 EV-ARGS-CONSERVE: "a fragment the dialect fold does not append (chat-fold TOOL-3
    # re-send) is not a delta"
    whole = tool(0, call_id="call_1", name="get_weather", arguments='{"city":"Paris"}')
    _conserved(check, "openai-chat", chat(whole, whole, reason="tool_calls"))


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-ARGS-OPTIONAL")
def test_a_call_without_argument_fragments_still_completes(check: EventsCheck, source: str) -> None:
    # §2: "A call may complete with no delta"; no fragment carries arguments here
    frames = call_stream(source, "call_1", "get_weather")
    _, output = check.normalized(source, frames)
    kinds = [
        e.get("type")
        for e in output["events"]
        if isinstance(e, dict) and e.get("type") in CALL_KINDS
    ]
    if kinds != ["ToolCallStarted", "ToolCallCompleted"]:
        raise check.fail(
            "a call with no argument fragment did not complete without deltas",
            expected=["ToolCallStarted", "ToolCallCompleted"],
            received=kinds,
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-ARGS-PARSED")
def test_completed_arguments_are_the_parsed_json_object(check: EventsCheck, source: str) -> None:
    # §2: "ToolCallCompleted.call.arguments is the parsed JSON object"
    arguments = {"city": "Paris", "days": [1, 2.5], "units": {"metric": True, "x": None}}
    text = json.dumps(arguments)
    check.emits(
        source,
        call_stream(source, "call_1", "get_weather", text[:9], text[9:]),
        [completed_event("call_1", "get_weather", arguments)],
        kinds=_COMPLETED,
    )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-ARGS-EMPTY-OBJECT")
def test_a_call_with_empty_arguments_completes_with_an_empty_object(
    check: EventsCheck, source: str
) -> None:
    # §2: "A call whose arguments are "" at its completion boundary completes with {}"
    check.emits(
        source,
        call_stream(source, "call_1", "get_time", ""),
        [completed_event("call_1", "get_time", {})],
        kinds=_COMPLETED,
    )


@rule("EV-ARGS-EMPTY-OBJECT")
def test_an_anthropic_tool_block_without_input_completes_with_an_empty_object(
    check: EventsCheck,
) -> None:
    # §2 EV-ARGS-EMPTY-OBJECT: no input_json_delta at all
    check.emits(
        "anthropic-messages",
        message(*tool_block(0, "toolu_1", "get_time"), reason="tool_use"),
        [completed_event("toolu_1", "get_time", {})],
        kinds=_COMPLETED,
    )


_INVALID = [
    pytest.param("openai-chat", ('{"city":',), id="chat-cut-json"),
    pytest.param("openai-chat", ("[1, 2]",), id="chat-not-an-object"),
    # an object before the boundary is not the arguments at it (the AI SDK's parsable
    # prefix, neutral-events.md §2.7)
    pytest.param(
        "openai-chat", ('{"city":"Paris"}', ', "unit": "C"}'), id="chat-an-object-then-more"
    ),
    pytest.param("anthropic-messages", ('{"city":',), id="anthropic-cut-json"),
    pytest.param("anthropic-messages", ('"Paris"',), id="anthropic-not-an-object"),
]


@pytest.mark.parametrize(("source", "partials"), _INVALID)
@rule("EV-ARGS-INVALID")
def test_arguments_that_are_not_an_object_fail_the_stream(
    check: EventsCheck, source: str, partials: tuple[str, ...]
) -> None:
    # §2: "Arguments that do not parse as an object at the boundary are not turned into a
    # ToolCallCompleted; the stream's outcome is error (invalid_tool_arguments)"
    frames = call_stream(source, "call_1", "get_weather", *partials)
    check.ends(source, frames, "error", kind="invalid_tool_arguments")
    check.emits(source, frames, [], kinds=_COMPLETED)
