"""The invariants every reference events run keeps, and the helpers of its tests.

`invariants(frames, result)` asserts the dialect-independent rules every reference run
must keep (grammar, Completed last, frame cover, opaque frames, conservation, the turn
fold), so each hand-written case and each property checks them on top of its own rule.
It lives in a `test_reference_*` module, with tests of its own showing it is not vacuous,
because `refold mutate --target reference` copies only those files into its scratch dir.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from refold.reference import json_equal
from refold.reference.events import Adapter, check_events, fold_turn, normalize, strip

_FIELDS = {
    "TextDelta": {"type", "delta", "opaque"},
    "ToolCallStarted": {"type", "id", "name", "opaque"},
    "ToolCallArgumentsDelta": {"type", "id", "delta", "opaque"},
    "ToolCallCompleted": {"type", "call", "opaque"},
    "Usage": {"type", "usage", "opaque"},
    "Completed": {"type", "turn"},
    "Opaque": {"type", "event_type", "payload"},
}


def chunk(
    delta: dict[str, Any] | None = None, *, finish: str | None = None, **envelope: Any
) -> dict[str, Any]:
    """A Chat chunk whose choice 0 carries `delta` (and `finish_reason`)."""
    entry: dict[str, Any] = {"index": 0, "delta": delta if delta is not None else {}}
    if finish is not None:
        entry["finish_reason"] = finish
    return {
        "id": "chatcmpl-ev",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4o-mini",
        **envelope,
        "choices": [entry],
    }


def fragment(
    index: int | None = 0,
    *,
    call_id: str | None = None,
    name: str | None = None,
    arguments: str | None = None,
) -> dict[str, Any]:
    """One `delta.tool_calls` entry."""
    entry: dict[str, Any] = {} if index is None else {"index": index}
    if call_id is not None:
        entry["id"], entry["type"] = call_id, "function"
    function: dict[str, Any] = {}
    if name is not None:
        function["name"] = name
    if arguments is not None:
        function["arguments"] = arguments
    entry["function"] = function
    return entry


def tools(*fragments: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """A chunk carrying tool-call fragments for choice 0."""
    return chunk({"tool_calls": list(fragments)}, finish=finish)


def run(dialect: str, frames: list[Any]) -> dict[str, Any]:
    """normalize(), with the invariants of every run asserted on the way."""
    result = normalize(dialect, frames)
    check(dialect, frames, result)
    return result


def check(dialect: str, frames: list[Any], result: dict[str, Any]) -> None:
    """Every invariant of a run, the frame-by-frame ones included, and the event checker
    finding nothing wrong with it, frame by frame as the ack protocol sees it."""
    invariants(frames, result)
    _same_frame_by_frame(dialect, frames, result)
    events, emitted, outcome, persisted = emitted_run(dialect, frames)
    found = check_events(
        dialect,
        frames,
        events,
        outcome,
        persisted,
        provider=dialect,
        turn_opaque=True,
        fold=fold_turn,
        strip=strip,
        emitted=emitted,
    )
    assert found == [], [str(violation) for violation in found]


def emitted_run(dialect: str, frames: list[Any]) -> tuple[list[Any], list[int], Any, Any]:
    """One stream frame by frame: its events, the frame each arrived at (`len(frames)`
    for those of end()), the outcome and what was persisted."""
    adapter = Adapter(dialect)
    events: list[Any] = []
    emitted: list[int] = []
    for number, frame in enumerate(frames):
        produced = adapter.frame(frame)
        events += produced
        emitted += [number] * len(produced)
    ending = adapter.end()
    final = ending.pop("events")
    events += final
    emitted += [len(frames)] * len(final)
    return events, emitted, ending, adapter.persisted()


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]


def turn(result: dict[str, Any]) -> dict[str, Any]:
    completed = of(result["events"], "Completed")
    assert len(completed) == 1, kinds(result["events"])
    return completed[0]["turn"]  # type: ignore[no-any-return]


def error_kind(result: dict[str, Any]) -> str | None:
    outcome = result["outcome"]
    return outcome["error"]["kind"] if outcome["outcome"] == "error" else None


def invariants(frames: list[Any], result: dict[str, Any]) -> None:
    """The dialect-independent rules of §2 and §3 on one reference run."""
    events = result["events"]
    for event in events:
        assert set(event) == _FIELDS[event["type"]], event  # EV-GRAMMAR
    completed = of(events, "Completed")
    if result["outcome"]["outcome"] == "completed":
        assert len(completed) == 1 and events[-1] is completed[0]  # EV-COMPLETED-LAST
        assert fold_turn(events) == completed[0]["turn"]  # EV-TEXT-CONSERVE, EV-USAGE-LAST
        assert fold_turn(strip(events)) == strip(completed[0]["turn"])  # PERSIST-PORTABLE
    else:
        assert not completed  # EV-NO-COMPLETED-ON-ERROR
    _arguments_conserved(events)
    persisted = result["persisted"]
    assert persisted == strip(persisted)  # PERSIST-IDEMPOTENT on what was written
    assert persisted["events"] == strip(events)  # PERSIST-STRIP


def _frames_covered(frames: list[Any], events: list[dict[str, Any]], last: int) -> None:
    """EV-OPAQUE-FRAME, and EV-FRAME-COVER up to frame `last` (the one the stream ended at)."""
    carried = [
        event.get("opaque", event.get("payload"))
        for event in events
        if event["type"] != "Completed"
    ]
    for value in carried:
        assert any(json_equal(value, frame) for frame in frames), value  # EV-OPAQUE-FRAME
    for frame in frames[: last + 1]:
        if frame != "[DONE]":
            assert any(json_equal(value, frame) for value in carried), frame  # EV-FRAME-COVER


def _arguments_conserved(events: list[dict[str, Any]]) -> None:
    """EV-ARGS-CONSERVE, EV-CALL-STARTED, EV-IDS-SINGLE-USE, EV-CALL-IDENTITY."""
    started: dict[str, str] = {}
    deltas: dict[str, list[str]] = {}
    done: set[str] = set()
    for event in events:
        if event["type"] == "ToolCallStarted":
            assert event["id"] not in started  # EV-IDS-SINGLE-USE
            started[event["id"]] = event["name"]
            deltas[event["id"]] = []
        elif event["type"] == "ToolCallArgumentsDelta":
            assert event["id"] in started and event["id"] not in done  # EV-CALL-STARTED
            assert event["delta"]  # EV-NO-EMPTY-DELTA
            deltas[event["id"]].append(event["delta"])
        elif event["type"] == "ToolCallCompleted":
            call = event["call"]
            assert started.get(call["id"]) == call["name"]  # EV-CALL-IDENTITY
            assert call["id"] not in done
            done.add(call["id"])
            if deltas[call["id"]]:  # EV-ARGS-OPTIONAL: no delta, nothing to conserve
                joined = "".join(deltas[call["id"]]).strip(" \t\n\r") or "{}"  # "" is {}
                assert json.loads(joined) == call["arguments"]
        elif event["type"] == "TextDelta":
            assert event["delta"]  # EV-NO-EMPTY-DELTA


def stepwise(dialect: str, frames: list[Any]) -> list[list[dict[str, Any]]]:
    """The events each `frame()` call returned, then those of `end()`, one list each."""
    adapter = Adapter(dialect)
    steps = [adapter.frame(frame) for frame in frames]
    return [*steps, adapter.end()["events"]]


def _same_frame_by_frame(dialect: str, frames: list[Any], result: dict[str, Any]) -> None:
    """EV-FRAME-ORDER: every event arrives from the call of the frame that produced it
    (a held fragment, EV-ARGS-BUFFER, from a later one); EV-DETERMINISM: the same events."""
    steps = stepwise(dialect, frames)
    assert [event for step in steps for event in step] == result["events"]
    # frames after the one that decided the outcome are not normalised (EV-NOTHING-AFTER-ERROR)
    last = max((k for k, step in enumerate(steps) if step), default=-1)
    _frames_covered(frames, result["events"], min(last, len(frames) - 1))
    for position, step in enumerate(steps[: len(frames)]):
        for event in step:
            carried = event.get("opaque", event.get("payload"))
            late = event["type"] == "ToolCallArgumentsDelta" or (
                event["type"] == "Opaque" and result["outcome"]["outcome"] == "error"
            )
            if late:  # EV-ARGS-BUFFER: a held fragment's frame, released or failed
                assert any(json_equal(carried, frame) for frame in frames[: position + 1])
            elif event["type"] != "Completed":
                assert json_equal(carried, frames[position]), (position, event)


_GOOD = [chunk({"content": "Hi"}), chunk({}, finish="stop"), "[DONE]"]


def _damaged(change: str) -> dict[str, Any]:
    result = normalize("openai-chat", _GOOD)
    events = result["events"]
    if change == "frame lost":
        del events[1]  # the finish chunk's Opaque: EV-FRAME-COVER
    elif change == "completed early":
        events.insert(0, events.pop())  # EV-COMPLETED-LAST
    elif change == "text lost":
        events[0]["delta"] = "H"  # EV-TEXT-CONSERVE: the turn still says "Hi"
    elif change == "field added":
        events[0]["extra"] = 1  # EV-GRAMMAR
    result["persisted"]["events"] = strip(events)
    return result


@pytest.mark.parametrize("change", ["frame lost", "completed early", "text lost", "field added"])
def test_the_invariants_catch_a_damaged_run(change: str) -> None:
    # the helper every events test relies on is not vacuous
    with pytest.raises(AssertionError):
        check("openai-chat", _GOOD, _damaged(change))


def test_the_invariants_hold_on_the_reference_run() -> None:
    run("openai-chat", _GOOD)
