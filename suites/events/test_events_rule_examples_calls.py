"""Rule examples: client tool calls (start, identity, single use, routing, completion,
the turn's calls)."""

from __future__ import annotations

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import events as reference_events
from refold.run.marks import rule

from ._calls import call_events, completed_calls, ids, two_calls
from ._expect import produced_by, turn_of
from ._frames import (
    args_event,
    call_stream,
    chat,
    completed_event,
    started_event,
    tool,
)
from ._sources import SOURCE_PARAMS

_BOUNDARIES = {"ToolCallStarted", "ToolCallCompleted"}


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-CALL-STARTED")
def test_a_call_starts_at_the_frame_naming_it_before_its_first_delta(
    check: EventsCheck, source: str
) -> None:
    # §2: "ToolCallStarted is emitted once a client-executed call's id and name are both
    # known, before any of its deltas and its completion"; the Chat frame naming the call
    # also carries its first fragment, so the order inside that frame decides
    frames = call_stream(source, "call_1", "get_weather", '{"city":', '"Paris"}')
    _, output = check.normalized(source, frames)
    named = frames[1]  # Chat: the chunk after the role chunk; Anthropic: the block start
    first = [
        e
        for e in produced_by(output, named)
        if isinstance(e, dict) and e.get("type", "").startswith("ToolCall")
    ][:1]
    if first != [started_event("call_1", "get_weather")]:
        raise check.fail(
            "the call's first event, at the frame naming it, is not its ToolCallStarted",
            expected=[started_event("call_1", "get_weather")],
            received=first,
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-CALL-STARTED")
def test_every_call_event_follows_the_calls_start(check: EventsCheck, source: str) -> None:
    # §2 EV-CALL-STARTED: before any of its deltas and its completion
    _, output = check.normalized(source, two_calls(source))
    seen: set[str | None] = set()
    early = []
    for number, kind, call_id in call_events(output["events"]):
        if kind == "ToolCallStarted":
            seen.add(call_id)
        elif call_id not in seen:
            early.append((number, kind, call_id))
    if early:
        raise check.fail("call events before the call's ToolCallStarted", received=early)


@rule("EV-CALL-STARTED")
def test_a_chat_call_named_after_its_id_starts_once_named(check: EventsCheck) -> None:
    # §2 EV-CALL-STARTED: "once ... id and name are both known": the id arrives first,
    # the name one chunk later; the fragment in between is held (it may not precede the
    # start, and the start may not go out without its name)
    frames = chat(
        tool(0, call_id="call_1", arguments='{"city":'),
        tool(0, name="get_weather", arguments='"Paris"}'),
        reason="tool_calls",
    )
    _, output = check.normalized("openai-chat", frames)
    calls = [
        e
        for e in reference_events.strip(output["events"])
        if isinstance(e, dict) and str(e.get("type")).startswith("ToolCall")
    ]
    if calls[:1] != [started_event("call_1", "get_weather")]:
        raise check.fail(
            "the call's first event is not a ToolCallStarted with its name",
            expected=[started_event("call_1", "get_weather")],
            received=calls[:1],
        )


@rule("EV-IDS-SINGLE-USE")
def test_a_chat_re_send_of_a_call_starts_and_completes_it_once(check: EventsCheck) -> None:
    # §2: "A call id is started at most once and completed at most once per turn";
    # chat-fold TOOL-3-RESEND: the same id with the complete arguments again changes nothing
    whole = tool(0, call_id="call_1", name="get_weather", arguments='{"city":"Paris"}')
    check.emits(
        "openai-chat",
        chat(whole, whole, reason="tool_calls"),
        [
            started_event("call_1", "get_weather"),
            completed_event("call_1", "get_weather", {"city": "Paris"}),
        ],
        kinds=_BOUNDARIES,
    )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-IDS-SINGLE-USE")
def test_each_of_two_calls_is_started_once_and_completed_once(
    check: EventsCheck, source: str
) -> None:
    # §2 EV-IDS-SINGLE-USE
    _, output = check.normalized(source, two_calls(source))
    boundaries = [
        (kind, call_id) for _, kind, call_id in call_events(output["events"]) if kind in _BOUNDARIES
    ]
    twice = [b for b in set(boundaries) if boundaries.count(b) > 1]
    if twice or len(boundaries) != 4:
        raise check.fail(
            "a call id was started or completed more than once (or not at all)", received=boundaries
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-CALL-ROUTE")
def test_argument_fragments_reach_the_call_their_key_names(check: EventsCheck, source: str) -> None:
    # §2: "Argument fragments reach the call the dialect's correlation key names (Chat: the
    # current call of the index ...; Anthropic: the block index), and ToolCall ids are the
    # ids a tool result must reference (Chat tool_calls[].id, Anthropic tool_use.id)"
    first, second = ids(source)
    check.emits(
        source,
        two_calls(source),
        [
            args_event(first, '{"city":'),
            args_event(first, '"Paris"}'),
            args_event(second, '{"city":'),
            args_event(second, '"Rome"}'),
        ],
        kinds={"ToolCallArgumentsDelta"},
    )


@rule("EV-CALL-ROUTE")
def test_interleaved_chat_fragments_follow_their_index(check: EventsCheck) -> None:
    # §2 EV-CALL-ROUTE; chat-fold lets fragments of different indexes interleave
    frames = chat(
        tool(0, call_id="call_a", name="get_weather", arguments='{"city":'),
        tool(1, call_id="call_b", name="get_time", arguments='{"city":'),
        tool(0, arguments='"Paris"}'),
        tool(1, arguments='"Rome"}'),
        reason="tool_calls",
    )
    _, output = check.normalized("openai-chat", frames)
    # the order of the completions at the finish is EV-TURN-CALLS', not this rule's
    received = sorted(
        (c.get("id"), str(c.get("arguments"))) for c in completed_calls(output["events"])
    )
    expected = [("call_a", str({"city": "Paris"})), ("call_b", str({"city": "Rome"}))]
    check.emits(
        "openai-chat",
        frames,
        [
            args_event("call_a", '{"city":'),
            args_event("call_b", '{"city":'),
            args_event("call_a", '"Paris"}'),
            args_event("call_b", '"Rome"}'),
        ],
        kinds={"ToolCallArgumentsDelta"},
    )
    if received != expected:
        raise check.fail(
            "a call completed with another index's fragments", expected=expected, received=received
        )


@rule("EV-CALL-ROUTE")
def test_fragments_after_a_new_id_on_a_chat_index_reach_the_new_call(check: EventsCheck) -> None:
    # §2 EV-CALL-ROUTE: "Chat: the current call of the index, chat-fold TOOL-1…5";
    # TOOL-2-NEW-ID: a new id on an occupied index starts a new call there
    frames = chat(
        tool(0, call_id="call_a", name="get_weather", arguments='{"city":'),
        tool(0, arguments='"Paris"}'),
        tool(0, call_id="call_b", name="get_time", arguments='{"city":'),
        tool(0, arguments='"Rome"}'),
        reason="tool_calls",
    )
    check.emits(
        "openai-chat",
        frames,
        [
            args_event("call_a", '{"city":'),
            args_event("call_a", '"Paris"}'),
            args_event("call_b", '{"city":'),
            args_event("call_b", '"Rome"}'),
        ],
        kinds={"ToolCallArgumentsDelta"},
    )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-CALL-IDENTITY")
def test_a_completed_call_has_the_id_and_name_it_started_with(
    check: EventsCheck, source: str
) -> None:
    # §2: "call.id and call.name equal those of its ToolCallStarted"
    _, output = check.normalized(source, two_calls(source))
    events = output["events"]
    names = {
        str(e.get("id")): e.get("name")
        for e in events
        if isinstance(e, dict) and e.get("type") == "ToolCallStarted"
    }
    # a completion under an id never started is EV-CALL-STARTED's, not this rule's
    wrong = [
        (c.get("id"), c.get("name"))
        for c in completed_calls(events)
        if str(c.get("id")) in names and names[str(c.get("id"))] != c.get("name")
    ]
    if wrong:
        raise check.fail(
            "a completed call's name differs from its start's", expected=names, received=wrong
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-STARTED-COMPLETED")
def test_every_started_call_completes_before_completed(check: EventsCheck, source: str) -> None:
    # §2: "With outcome completed, every started call has completed before Completed"
    _, output = check.normalized(source, two_calls(source))
    events = output["events"]
    last = next(
        (n for n, e in enumerate(events) if isinstance(e, dict) and e.get("type") == "Completed"),
        len(events),
    )
    started = {i for n, k, i in call_events(events) if k == "ToolCallStarted" and n < last}
    done = {i for n, k, i in call_events(events) if k == "ToolCallCompleted" and n < last}
    if started - done:
        raise check.fail(
            "a started call has not completed before Completed",
            expected=sorted(map(str, started)),
            received=sorted(map(str, done)),
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-TURN-CALLS")
def test_the_turns_calls_are_the_completed_calls_in_start_order(
    check: EventsCheck, source: str
) -> None:
    # §2: "T.tool_calls is exactly the completed calls, each once, in the order of their
    # ToolCallStarted"; the calls start in index order, so the start order and the
    # index order (open question between determinism and this rule) agree here
    turn = turn_of(check, source, two_calls(source))
    _, output = check.normalized(source, two_calls(source))
    events = output["events"]
    order = [i for _, k, i in call_events(events) if k == "ToolCallStarted"]
    calls = {c.get("id"): c for c in completed_calls(events)}
    expected = [calls[i] for i in order if i in calls]
    if turn.get("tool_calls") != expected:
        raise check.fail(
            "T.tool_calls is not the completed calls in start order",
            expected=expected,
            received=turn.get("tool_calls"),
        )


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("EV-NO-DELTA-AFTER-COMPLETED")
def test_no_delta_of_a_call_follows_its_completion(check: EventsCheck, source: str) -> None:
    # §2: "No delta for a call after its completion (NE-15)"; Anthropic completes the
    # first call before the second one's deltas arrive
    _, output = check.normalized(source, two_calls(source))
    done: set[str | None] = set()
    late = []
    for number, kind, call_id in call_events(output["events"]):
        if kind == "ToolCallCompleted":
            done.add(call_id)
        elif kind == "ToolCallArgumentsDelta" and call_id in done:
            late.append((number, call_id))
    if late:
        raise check.fail("a delta follows its call's completion", received=late)
