"""What the events rule examples assert, on top of `EventsCheck`.

Each helper runs the adapter once over a stream (`check.normalized`) and fails with the
rules of the running test (`check.fail`), so an example is evidence against exactly the
rules it is marked with:

- `emits`: the projection of strip(E) onto the event types a rule is about;
- `ends`: the outcome (and error kind);
- `holds`: the event checker's violations of the test's own rules only (so a defect of
  another rule, or a spec conflict still being decided, never fails the example);
- `turn_of`, `produced_by`, `emitted_at`: the raw turn, the events a frame produced (by
  their opaque) and where each was emitted (the events target's `emitted` positions),
  for the rules about them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from refold.checks import ConformanceFailure
from refold.errors import TargetError
from refold.events_checks import EventsCheck
from refold.reference import JSON, JSONObject
from refold.reference import events as reference_events

__all__ = ["emits", "emitted_at", "ends", "holds", "produced_by", "run", "turn_of"]


def run(check: EventsCheck, source: str, frames: Sequence[JSON]
        ) -> tuple[list[JSON], JSONObject]:
    """The stream as sent and the adapter's whole output for it."""
    __tracebackhide__ = True
    return check.normalized(source, frames)


def _events(output: JSONObject) -> list[JSON]:
    events = output.get("events")
    return events if isinstance(events, list) else []


def _type(event: JSON) -> JSON:
    return event.get("type") if isinstance(event, dict) else None


def emits(check: EventsCheck, source: str, frames: Sequence[JSON], expected: list[JSON], *,
          kinds: Collection[str]) -> JSONObject:
    """Assert that strip(E), projected onto the event types `kinds`, is `expected`;
    return the adapter's output."""
    __tracebackhide__ = True
    stream, output = run(check, source, frames)
    received = [e for e in reference_events.strip(_events(output)) if _type(e) in kinds]
    if received != expected:
        raise check.fail(f"the adapter's {', '.join(sorted(kinds))} events differ from "
                         f"those the rule calls for", chunks=stream, expected=expected,
                         received=received)
    return output


def ends(check: EventsCheck, source: str, frames: Sequence[JSON], outcome: str, *,
         kind: str | None = None) -> JSONObject:
    """Assert the stream's outcome (and, for `error`, its kind); return the output."""
    __tracebackhide__ = True
    stream, output = run(check, source, frames)
    found = output.get("outcome")
    received = found if isinstance(found, dict) else {"outcome": found}
    error = received.get("error")
    got = (received.get("outcome"), error.get("kind") if isinstance(error, dict) else None)
    if got[0] != outcome or (kind is not None and got[1] != kind):
        raise check.fail(f"the stream's outcome is {got[0]!r} ({got[1]}); expected "
                         f"{outcome!r}" + (f" ({kind})" if kind else ""), chunks=stream,
                         expected={"outcome": outcome, "kind": kind},
                         received={"outcome": got[0], "kind": got[1]})
    return output


def holds(check: EventsCheck, source: str, frames: Sequence[JSON], *,
          canaries: Sequence[str] = ()) -> JSONObject:
    """Assert that the event checker finds no violation of the test's own rules in the
    adapter's output for `frames`; return the output."""
    __tracebackhide__ = True
    stream, output = run(check, source, frames)
    target = check.target
    violations = reference_events.check_events(
        source, list(frames), _events(output), output.get("outcome"),
        output.get("persisted"), canaries=canaries, provider=target.provider or source,
        turn_opaque="events.turn_opaque" in target.features,
        fold=(lambda events: _adapter_fold(check, events)) if target.offers_fold else None)
    own = [v for v in violations if v.rule in check.rules]
    if own:
        raise ConformanceFailure(
            check.rules, f"the adapter's output breaks "
            f"{', '.join(dict.fromkeys(v.rule for v in own))}", chunks=stream,
            received=reference_events.strip(_events(output)), claimed=target.features,
            violations=tuple((v.rule, str(v)) for v in own))
    return output


def _adapter_fold(check: EventsCheck, events: list[JSON]) -> JSON:
    try:
        return check.target.fold_events(events)
    except TargetError as exc:
        raise check.fail(f"the adapter's fold of events failed ({exc.kind})",
                         target_error=str(exc)) from exc


def turn_of(check: EventsCheck, source: str, frames: Sequence[JSON]) -> JSONObject:
    """The raw turn of the stream's Completed (response_id and opaque included); a
    stream without exactly one Completed fails the test's rules."""
    __tracebackhide__ = True
    stream, output = run(check, source, frames)
    completed = [e for e in _events(output) if _type(e) == "Completed"]
    turn = completed[0].get("turn") if len(completed) == 1 else None
    if not isinstance(turn, dict):
        raise check.fail(f"expected one Completed with a turn object, found "
                         f"{len(completed)} Completed", chunks=stream,
                         received=reference_events.strip(_events(output)))
    return turn


def emitted_at(output: JSONObject) -> list[int]:
    """Per event, the number of the frame it was emitted for (len(frames): at the end
    of the body), as the events target records it."""
    emitted = output.get("emitted")
    return [int(k) for k in emitted] if isinstance(emitted, list) else []


def produced_by(output: JSONObject, frame: JSON) -> list[JSON]:
    """The stripped events whose opaque (or payload) is `frame`: the events it produced
    (EV-OPAQUE-FRAME), whenever they were emitted."""
    return [reference_events.strip(e) for e in _events(output) if isinstance(e, dict)
            and e.get("type") != "Completed" and e.get("opaque", e.get("payload")) == frame]
