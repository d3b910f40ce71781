"""The event-sequence rules: grammar, the terminal, each call's life, text and usage.

Each check reads the events (and the outcome), never the frames, and yields every
violation it finds. Fields of the wrong JSON type are EV-GRAMMAR's alone: the other checks
skip what they cannot read (a usage of the wrong shape, a stop reason outside the
vocabulary), so one fault is reported once.

Decision (EV-TURN-CALLS vs EV-FOLD-AGREES and EV-DETERMINISM, chat-fold split family 5):
when a Chat call's id arrives after its first fragments, the order of the ToolCallStarted
events depends on the split, while EV-FOLD-AGREES holds T.tool_calls equal to the fold's
list (index, then arrival: TOOL-OUTPUT) and EV-DETERMINISM forbids a split to change
strip(T). The faithful reading keeps both equalities: T.tool_calls has the fold's order,
which is the start order whenever each id comes with its call's first fragment (and
always for Anthropic), and the order NE-21's prior art fills in (cratefield: index
order). EV-TURN-CALLS therefore accepts either order and demands only the rest of what it
says (exactly the completed calls, each once); which order is right is EV-FOLD-AGREES's to
say, so an adapter keeping start order is charged once, there, on streams where the two
differ.

Decision (EV-USAGE-MONOTONE vs anthropic-fold's AM-USAGE-REPLACE, split family 7):
message_start may carry a provisional `output_tokens` above the final one message_delta
reports, and the fold lets the later count replace it. EV-USAGE asks for each reported
usage object as one whole snapshot, so an adapter passing the provider's counts shows the
provider's own decrease and cannot be blamed for it: a fall in the Usage sequence is a
violation only where the frame of the falling Usage does not itself report a count below
the highest an earlier frame reported (NE-29 derives the rule from cumulative provider
counts; where they are not cumulative it has nothing to derive). A fall the frames made
is the new baseline.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..._json import JSON, JSONObject, json_equal
from ._context import Stream
from ._dialects import arguments_value, reported_output_tokens
from ._frames import outcome_violations
from ._grammar import event_problems, usage_ok
from ._violation import Violation, impact_between

__all__ = [
    "ev_args_conserve",
    "ev_args_parsed",
    "ev_call_identity",
    "ev_call_started",
    "ev_completed_last",
    "ev_grammar",
    "ev_ids_single_use",
    "ev_no_completed_on_error",
    "ev_no_delta_after_completed",
    "ev_no_empty_delta",
    "ev_started_completed",
    "ev_text_conserve",
    "ev_turn_calls",
    "ev_usage_last",
    "ev_usage_monotone",
    "ev_usage_unreported",
]

_COUNTERS = ("input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens")


def _show(value: JSON, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _id(event: JSONObject) -> str | None:
    value = event.get("call") if event.get("type") == "ToolCallCompleted" else event
    call_id = value.get("id") if isinstance(value, dict) else None
    return call_id if isinstance(call_id, str) else None


def _call_events(stream: Stream) -> Iterator[tuple[int, str, str, JSONObject]]:
    """(index, variant, call id, event) of every call event whose id can be read."""
    for number, event in enumerate(stream.events):
        if isinstance(event, dict) and event.get("type") in (
            "ToolCallStarted",
            "ToolCallArgumentsDelta",
            "ToolCallCompleted",
        ):
            call_id = _id(event)
            if call_id is not None:
                yield number, event["type"], call_id, event


def ev_grammar(stream: Stream) -> Iterator[Violation]:
    """EV-GRAMMAR: every event has its variant's fields, of §1's types; the outcome is one
    of the protocol's."""
    for number, event in enumerate(stream.events):
        for where, problem in event_problems(event):
            yield Violation("EV-GRAMMAR", problem, event=number, pointer=where)
    if stream.outcome.problem is not None:
        yield Violation("EV-GRAMMAR", stream.outcome.problem)


def ev_completed_last(stream: Stream) -> Iterator[Violation]:
    """EV-COMPLETED-LAST: outcome `completed` means exactly one Completed, the last event;
    frames that end well, given an error of a kind no other rule names, break it too."""
    yield from outcome_violations(stream, "EV-COMPLETED-LAST")
    if not stream.completed:
        return
    found = [number for number, _ in stream.of_type("Completed")]
    if not found:
        yield Violation(
            "EV-COMPLETED-LAST",
            f"the outcome is completed but none of the "
            f"{len(stream.events)} events is a Completed; expected exactly one, last",
            impact="loss",
        )
    for extra in found[1:]:
        yield Violation(
            "EV-COMPLETED-LAST",
            f"a second Completed (the first is event {found[0]}); expected exactly one",
            event=extra,
        )
    last = len(stream.events) - 1
    if found and found[-1] != last:
        yield Violation(
            "EV-COMPLETED-LAST",
            f"Completed is followed by {last - found[-1]} "
            f"event(s); expected it to be the last event",
            event=found[-1],
        )


def ev_no_completed_on_error(stream: Stream) -> Iterator[Violation]:
    """EV-NO-COMPLETED-ON-ERROR: outcome `error` means no Completed."""
    if stream.outcome.name != "error":
        return
    for number, _ in stream.of_type("Completed"):
        yield Violation(
            "EV-NO-COMPLETED-ON-ERROR",
            f"a Completed although the outcome is "
            f"error ({stream.outcome.kind or 'no kind'}); expected none",
            event=number,
        )


def ev_call_started(stream: Stream) -> Iterator[Violation]:
    """EV-CALL-STARTED: a call's deltas and completion come after its ToolCallStarted;
    frames with a call that never gets an id and a name end in `unsupported`."""
    yield from outcome_violations(stream, "EV-CALL-STARTED")
    started: set[str] = set()
    for number, kind, call_id, _ in _call_events(stream):
        if kind == "ToolCallStarted":
            started.add(call_id)
        elif call_id not in started:
            yield Violation(
                "EV-CALL-STARTED",
                f"{kind} for call {call_id!r}, which no earlier ToolCallStarted announced",
                event=number,
            )


def ev_ids_single_use(stream: Stream) -> Iterator[Violation]:
    """EV-IDS-SINGLE-USE: a call id is started at most once and completed at most once;
    frames announcing two calls with one id end in `unsupported`."""
    yield from outcome_violations(stream, "EV-IDS-SINGLE-USE")
    seen: dict[tuple[str, str], int] = {}
    for number, kind, call_id, _ in _call_events(stream):
        if kind == "ToolCallArgumentsDelta":
            continue
        first = seen.setdefault((kind, call_id), number)
        if first != number:
            yield Violation(
                "EV-IDS-SINGLE-USE",
                f"a second {kind} for call {call_id!r} "
                f"(the first is event {first}); ids are single-use",
                event=number,
            )


def ev_no_delta_after_completed(stream: Stream) -> Iterator[Violation]:
    """EV-NO-DELTA-AFTER-COMPLETED: no delta for a call after its ToolCallCompleted; frames
    that append to a call after it completed end in inconsistent_tool_arguments."""
    yield from outcome_violations(stream, "EV-NO-DELTA-AFTER-COMPLETED")
    done: dict[str, int] = {}
    for number, kind, call_id, _ in _call_events(stream):
        if kind == "ToolCallCompleted":
            done.setdefault(call_id, number)
        elif kind == "ToolCallArgumentsDelta" and call_id in done:
            yield Violation(
                "EV-NO-DELTA-AFTER-COMPLETED",
                f"a delta for call {call_id!r} after its ToolCallCompleted (event {done[call_id]})",
                event=number,
            )


def ev_started_completed(stream: Stream) -> Iterator[Violation]:
    """EV-STARTED-COMPLETED: with outcome `completed`, every started call completed before
    Completed."""
    if not stream.completed:
        return
    ends = [number for number, _ in stream.of_type("Completed")]
    end = ends[0] if ends else len(stream.events)
    started: dict[str, int] = {}
    done: set[str] = set()
    for number, kind, call_id, _ in _call_events(stream):
        if number > end:
            break
        if kind == "ToolCallStarted":
            started.setdefault(call_id, number)
        elif kind == "ToolCallCompleted":
            done.add(call_id)
    for call_id, number in started.items():
        if call_id not in done:
            yield Violation(
                "EV-STARTED-COMPLETED",
                f"call {call_id!r} started but never completed before the end of a completed turn",
                event=number,
            )


def ev_call_identity(stream: Stream) -> Iterator[Violation]:
    """EV-CALL-IDENTITY: call.name equals its ToolCallStarted's name (the id is the key)."""
    names: dict[str, JSON] = {}
    for number, kind, call_id, event in _call_events(stream):
        if kind == "ToolCallStarted":
            names.setdefault(call_id, event.get("name"))
        elif kind == "ToolCallCompleted" and call_id in names:
            name = event["call"].get("name")
            if name != names[call_id]:
                yield Violation(
                    "EV-CALL-IDENTITY",
                    f"call {call_id!r} completes with name "
                    f"{_show(name)}, expected {_show(names[call_id])} as started",
                    event=number,
                    pointer="/call/name",
                )


def ev_args_parsed(stream: Stream) -> Iterator[Violation]:
    """EV-ARGS-PARSED: ToolCallCompleted.call.arguments is a JSON object."""
    for number, event in stream.of_type("ToolCallCompleted"):
        call = event.get("call")
        if (
            isinstance(call, dict)
            and "arguments" in call
            and not isinstance(call["arguments"], dict)
        ):
            yield Violation(
                "EV-ARGS-PARSED",
                f"arguments are {_show(call['arguments'])}, expected the parsed JSON object",
                event=number,
                pointer="/call/arguments",
            )


def ev_args_conserve(stream: Stream) -> Iterator[Violation]:
    """EV-ARGS-CONSERVE: a call's deltas, joined and parsed (`""` -> `{}`), are its arguments.

    A call with no delta is not checked (EV-ARGS-OPTIONAL)."""
    deltas: dict[str, list[str]] = {}
    for number, kind, call_id, event in _call_events(stream):
        if kind == "ToolCallArgumentsDelta" and isinstance(event.get("delta"), str):
            deltas.setdefault(call_id, []).append(event["delta"])
        elif kind == "ToolCallCompleted" and call_id in deltas:
            joined = "".join(deltas.pop(call_id))
            arguments = event["call"].get("arguments")
            if not isinstance(arguments, dict):
                continue  # EV-ARGS-PARSED's
            value = arguments_value(joined)
            if value is None or not json_equal(value, arguments):
                yield Violation(
                    "EV-ARGS-CONSERVE",
                    f"call {call_id!r}: the deltas join to "
                    f"{_show(joined)}, which parses to {_show(value)}, but the "
                    f"arguments are {_show(arguments)}",
                    event=number,
                    pointer="/call/arguments",
                    impact="corruption" if value is None else impact_between(value, arguments),
                )


def ev_no_empty_delta(stream: Stream) -> Iterator[Violation]:
    """EV-NO-EMPTY-DELTA: no TextDelta or ToolCallArgumentsDelta has an empty delta."""
    for number, event in enumerate(stream.events):
        if (
            isinstance(event, dict)
            and event.get("type") in ("TextDelta", "ToolCallArgumentsDelta")
            and event.get("delta") == ""
        ):
            yield Violation(
                "EV-NO-EMPTY-DELTA",
                f"{event['type']} with an empty delta; "
                f"expected a frame with nothing new to be an Opaque",
                event=number,
                pointer="/delta",
            )


def ev_text_conserve(stream: Stream) -> Iterator[Violation]:
    """EV-TEXT-CONSERVE: T.output_text is the concatenation of the TextDelta deltas."""
    turn = stream.turn
    if turn is None or not isinstance(turn[1].get("output_text"), str):
        return
    joined = "".join(
        e["delta"] for _, e in stream.of_type("TextDelta") if isinstance(e.get("delta"), str)
    )
    if turn[1]["output_text"] != joined:
        yield Violation(
            "EV-TEXT-CONSERVE",
            f"output_text is {_show(turn[1]['output_text'])}, "
            f"expected the TextDelta deltas joined, {_show(joined)}",
            event=turn[0],
            pointer="/turn/output_text",
            impact=impact_between(joined, turn[1]["output_text"]),
        )


def ev_turn_calls(stream: Stream) -> Iterator[Violation]:
    """EV-TURN-CALLS: T.tool_calls is the completed calls, each once, in start order or in
    the dialect fold's order (see the module docstring)."""
    turn = stream.turn
    if turn is None or not isinstance(turn[1].get("tool_calls"), list):
        return
    starts: dict[str, int] = {}
    completed: dict[str, tuple[int, JSON]] = {}
    for number, kind, call_id, event in _call_events(stream):
        if kind == "ToolCallStarted":
            starts.setdefault(call_id, number)
        elif kind == "ToolCallCompleted" and number < turn[0]:
            completed.setdefault(call_id, (starts.get(call_id, number), event["call"]))
    expected = [call for _, call in sorted(completed.values(), key=lambda item: item[0])]
    received = turn[1]["tool_calls"]
    if json_equal(expected, received) or json_equal(_fold_order(stream, expected), received):
        return
    yield Violation(
        "EV-TURN-CALLS",
        f"tool_calls is {_show(received)}, expected the "
        f"completed calls in start order, {_show(expected)} (or in the dialect "
        f"fold's order)",
        event=turn[0],
        pointer="/turn/tool_calls",
        impact=impact_between(expected, received),
    )


def _fold_order(stream: Stream, calls: list[JSON]) -> list[JSON] | None:
    """`calls` in the order the dialect fold lists their ids; None if it lacks one."""
    view = stream.expected
    listed = [call.get("id") for call in view.tool_calls] if view is not None else []
    ids = [call.get("id") if isinstance(call, dict) else None for call in calls]
    if not all(isinstance(i, str) and i in listed for i in ids) or len(set(ids)) != len(ids):
        return None
    return sorted(
        calls, key=lambda call: listed.index(call.get("id") if isinstance(call, dict) else None)
    )


def _usages(stream: Stream) -> list[tuple[int, JSONObject]]:
    return [(n, e["usage"]) for n, e in stream.of_type("Usage") if usage_ok(e.get("usage"))]


def ev_usage_last(stream: Stream) -> Iterator[Violation]:
    """EV-USAGE-LAST: T.usage equals the last Usage's usage."""
    turn, usages = stream.turn, _usages(stream)
    if turn is None or not usages or not usage_ok(turn[1].get("usage")):
        return
    number, last = usages[-1]
    if not json_equal(turn[1].get("usage"), last):
        yield Violation(
            "EV-USAGE-LAST",
            f"turn usage is {_show(turn[1].get('usage'))}, "
            f"expected the last Usage's (event {number}), {_show(last)}",
            event=turn[0],
            pointer="/turn/usage",
            impact=impact_between(last, turn[1].get("usage")),
        )


def ev_usage_unreported(stream: Stream) -> Iterator[Violation]:
    """EV-USAGE-UNREPORTED: with no Usage, T.usage has all four counters null."""
    turn = stream.turn
    if turn is None or _usages(stream) or not usage_ok(turn[1].get("usage")):
        return
    expected = dict.fromkeys(_COUNTERS)
    if not json_equal(turn[1].get("usage"), expected):
        yield Violation(
            "EV-USAGE-UNREPORTED",
            f"no Usage was emitted but the turn usage is "
            f"{_show(turn[1].get('usage'))}, expected all four counters null",
            event=turn[0],
            pointer="/turn/usage",
            impact=impact_between(expected, turn[1].get("usage")),
        )


def ev_usage_monotone(stream: Stream) -> Iterator[Violation]:
    """EV-USAGE-MONOTONE: a reported output_tokens never decreases across Usage events,
    unless the frames' own reported counts decrease there (see the module docstring)."""
    highest: tuple[int, float] | None = None
    reported: list[int | None] = [
        reported_output_tokens(stream.dialect, frame) for frame in stream.frames
    ]
    for number, usage in _usages(stream):
        count = usage.get("output_tokens")
        if not isinstance(count, int | float) or isinstance(count, bool):
            continue
        falls = highest is not None and count < highest[1]
        if highest is not None and falls and not _frames_fall(reported, stream.origin[number]):
            yield Violation(
                "EV-USAGE-MONOTONE",
                f"output_tokens falls to {count} after "
                f"{highest[1]} (event {highest[0]}) where the frames' own counts "
                f"do not; counts are cumulative",
                event=number,
                pointer="/usage/output_tokens",
            )
        elif highest is None or count >= highest[1] or falls:
            highest = (number, count)  # a fall the frames made is the new baseline


def _frames_fall(reported: list[int | None], frame: int | None) -> bool:
    """Whether `frame` reports an output count below one an earlier frame reported."""
    if frame is None or reported[frame] is None:
        return False
    earlier = [count for count in reported[:frame] if count is not None]
    return bool(earlier) and reported[frame] < max(earlier)  # type: ignore[operator]
