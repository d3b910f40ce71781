"""What the events rule examples read of an adapter's output, beside `EventsCheck`'s
assertions (`emits`: a projection of strip(E); `ends`: the outcome; `holds`: the event
checker's violations of the test's own rules only), each failing with the running
test's rules so an example is evidence against exactly the rules it is marked with:
`turn_of` (the raw turn), `produced_by` (the events a frame produced, by their opaque)
and `emitted_at` (where each was emitted: the events target's `emitted` positions).
"""

from __future__ import annotations

from collections.abc import Sequence

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON, JSONObject
from refold.reference import events as reference_events

__all__ = ["emitted_at", "produced_by", "turn_of"]


def _events(output: JSONObject) -> list[JSON]:
    events = output.get("events")
    return events if isinstance(events, list) else []


def _type(event: JSON) -> JSON:
    return event.get("type") if isinstance(event, dict) else None


def turn_of(check: EventsCheck, source: str, frames: Sequence[JSON]) -> JSONObject:
    """The raw turn of the stream's Completed (response_id and opaque included); a
    stream without exactly one Completed fails the test's rules."""
    __tracebackhide__ = True
    stream, output = check.normalized(source, frames)
    completed = [e for e in _events(output) if _type(e) == "Completed"]
    turn = completed[0].get("turn") if len(completed) == 1 else None
    if not isinstance(turn, dict):
        raise check.fail(
            f"expected one Completed with a turn object, found {len(completed)} Completed",
            chunks=stream,
            received=reference_events.strip(_events(output)),
        )
    return turn


def emitted_at(output: JSONObject) -> list[int]:
    """Per event, the number of the frame it was emitted for (len(frames): at the end
    of the body), as the events target records it."""
    emitted = output.get("emitted")
    return [int(k) for k in emitted] if isinstance(emitted, list) else []


def produced_by(output: JSONObject, frame: JSON) -> list[JSON]:
    """The stripped events whose opaque (or payload) is `frame`: the events it produced
    (EV-OPAQUE-FRAME), whenever they were emitted."""
    return [
        reference_events.strip(e)
        for e in _events(output)
        if isinstance(e, dict)
        and e.get("type") != "Completed"
        and e.get("opaque", e.get("payload")) == frame
    ]
