"""What the events suites assert: an adapter's output held to events.md.

`EventsCheck` is the `Check` of the `provider-events` dialect. Each assertion runs the
adapter over one stream (`{"begin": SOURCE}`, then the frames), then hands its whole
output to the library checker (`refold.reference.events.check_events`), whose every
violation names its rule: a failure is evidence against exactly the rules violated (and
is masked when they are all known failures of a baseline). Differential and determinism
assertions then compare the stripped output with the reference adapter's and with
another split's, charged by pointer like any dialect's differences.

A stream of a source the adapter does not accept is not run: the test is skipped with
that reason, as a test of a feature the target does not claim is.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import pytest

from refold.reference import JSON, JSONObject, differences, scrub
from refold.reference import events as reference_events

from .checks import Check, ConformanceFailure
from .dialects.provider_events import begin, frames_of, source_of
from .errors import TargetError
from .targets.events import EventsTarget, unaccepted

__all__ = ["EventsCheck"]

_SHOWN_VIOLATIONS = 8


class EventsCheck(Check):
    """The suite's handle on an events adapter, bound to the running test's rules."""

    target: EventsTarget
    _last_stream: list[JSON] | None = None

    @property
    def rules(self) -> tuple[str, ...]:
        """The running test's rules; binding them starts a test with no stream run."""
        return self._rules

    @rules.setter
    def rules(self, value: tuple[str, ...]) -> None:
        self._rules = value
        self._last_stream = None

    def fail(self, summary: str, *, rules: Sequence[str] | None = None,
             events: list[JSON] | None = None, **details: object) -> ConformanceFailure:
        """As `Check.fail`; a failure that names no stream shows the last one this test
        ran, and one with an expected and a received value their differences, so every
        failure shows the frames it is about and what differed."""
        if events is None and "chunks" not in details and self._last_stream is not None:
            details["chunks"] = self._last_stream
        if "differences" not in details and "expected" in details and "received" in details:
            # provider frames shown as "(present, not kept)", as every persisted record does
            found = differences(scrub(details["expected"]), scrub(details["received"]))
            details["shown"] = tuple(str(d) for d in found[:_SHOWN_VIOLATIONS])
        return super().fail(summary, rules=rules, events=events, **details)

    def normalized(self, source: str, frames: Sequence[JSON]) -> tuple[list[JSON], JSONObject]:
        """Run the adapter over `frames` of `source`: (the stream as sent, its output).
        A source the adapter does not accept skips the test."""
        __tracebackhide__ = True
        stream = begin(source, frames)
        refusal = unaccepted(self.target, stream)
        if refusal is not None:
            pytest.skip(refusal)
        self._last_stream = stream
        return stream, self.fold(stream)

    def keeps_contract(self, source: str, frames: Sequence[JSON], *, known: JSON = None,
                       canaries: Sequence[str] = ()) -> JSONObject:
        """Assert that the adapter's output for `frames` breaks no rule the checker
        checks (held to `known`, the completion the frames were drawn from, when given),
        and that `canaries` appear nowhere in what it persists; return the output."""
        __tracebackhide__ = True
        stream, output = self.normalized(source, frames)
        self._judge(stream, output, known=known, canaries=canaries)
        return output

    def agrees_with_reference(self, source: str, frames: Sequence[JSON], *,
                              canaries: Sequence[str] = ()) -> JSONObject:
        """Assert the contract, then that strip(E) and the outcome equal the reference
        adapter's for the same frames (events.md §5.6, the differential)."""
        __tracebackhide__ = True
        stream, output = self.normalized(source, frames)
        self._judge(stream, output, canaries=canaries)
        expected = self.dialect.fold(stream)
        found = self.differences(expected, output)
        if found:
            raise self.fail(f"the adapter's stripped events differ from the reference "
                            f"adapter's at {len(found)} place(s)", chunks=stream,
                            differences=found, expected=_shown(expected),
                            received=_shown(output))
        return output

    def deterministic(self, source: str, splits: Sequence[Sequence[JSON]]) -> None:
        """Assert that every split of one completion gives the same strip(T)
        (EV-DETERMINISM): the number of deltas may change, the stripped turn not."""
        __tracebackhide__ = True
        first: tuple[list[JSON], JSON] | None = None
        for frames in splits:
            stream, output = self.normalized(source, frames)
            turn = reference_events.strip(_turn(output))
            if first is None:
                first = stream, turn
                continue
            found = differences(first[1], turn)
            if found:
                raise self.fail(f"two splits of one completion give different stripped "
                                f"turns at {len(found)} place(s); the first split's turn "
                                f"is expected", chunks=stream, differences=found,
                                expected=first[1], received=turn)

    def emits(self, source: str, frames: Sequence[JSON], expected: Sequence[JSON], *,
              kinds: Collection[str]) -> JSONObject:
        """Assert that the adapter's events, stripped (events.md §3) and only those whose
        `type` is in `kinds`, are `expected`; return the output. A rule example asserts
        this: it is evidence against the rules it is marked with only."""
        __tracebackhide__ = True
        stream, output = self.normalized(source, frames)
        events = output.get("events")
        received = [e for e in reference_events.strip(events if isinstance(events, list)
                                                      else []) or []
                    if isinstance(e, dict) and e.get("type") in kinds]
        if received != list(expected):
            raise self.fail(f"the adapter's {', '.join(sorted(kinds))} events differ from "
                            f"those the rule calls for", chunks=stream,
                            expected=list(expected), received=received)
        return output

    def ends(self, source: str, frames: Sequence[JSON], outcome: str, *,
             kind: str | None = None) -> JSONObject:
        """Assert the stream's outcome (and, for `error`, its kind when given); return
        the output."""
        __tracebackhide__ = True
        stream, output = self.normalized(source, frames)
        found = output.get("outcome")
        received = found if isinstance(found, dict) else {"outcome": found}
        error = received.get("error")
        got = (received.get("outcome"), error.get("kind") if isinstance(error, dict) else None)
        if got[0] != outcome or (kind is not None and got[1] != kind):
            raise self.fail(f"the stream's outcome is {got[0]!r} ({got[1]}); expected "
                            f"{outcome!r}" + (f" ({kind})" if kind else ""), chunks=stream,
                            expected={"outcome": outcome, "kind": kind},
                            received={"outcome": got[0], "kind": got[1]})
        return output

    def holds(self, source: str, frames: Sequence[JSON], *,
              canaries: Sequence[str] = ()) -> JSONObject:
        """Assert that the event checker finds no violation of the running test's own
        rules in the adapter's output (a defect of another rule is other tests' to find);
        return the output."""
        __tracebackhide__ = True
        stream, output = self.normalized(source, frames)
        self._judge(stream, output, canaries=canaries, only=frozenset(self.rules))
        return output

    def _judge(self, stream: list[JSON], output: JSONObject, *, known: JSON = None,
               canaries: Sequence[str] = (), only: frozenset[str] | None = None) -> None:
        __tracebackhide__ = True
        source, frames = source_of(stream), frames_of(stream)
        target = self.target
        violations = reference_events.check_events(
            source, frames, output.get("events") or [], output.get("outcome"),
            output.get("persisted"), known=known, canaries=canaries,
            provider=target.provider or source,
            turn_opaque="events.turn_opaque" in target.features,
            fold=self._fold_events if target.offers_fold else None,
            emitted=output.get("emitted"))
        judged = [v for v in violations if v.rule not in self.masked
                  and self.dialect.rules[v.rule].feature in target.features
                  and (only is None or v.rule in only)]
        if judged:
            shown = judged[:_SHOWN_VIOLATIONS]
            more = len(judged) - len(shown)
            rules = tuple(dict.fromkeys(v.rule for v in judged))
            raise ConformanceFailure(
                self.rules, f"the adapter's output breaks {', '.join(rules)}"
                + (f" ({more} more violations not shown)" if more > 0 else ""),
                chunks=stream, received=_shown(output), claimed=target.features,
                violations=tuple((v.rule, str(v)) for v in shown)
                + tuple((r, f"{r}: (more)") for r in rules if r not in
                        {v.rule for v in shown}))

    def _fold_events(self, events: list[JSON]) -> JSON:
        try:
            return self.target.fold_events(events)
        except TargetError as exc:
            raise self.fail(f"the adapter's fold of events failed ({exc.kind})",
                            target_error=str(exc)) from exc


def _turn(output: JSONObject) -> JSON:
    events = output.get("events")
    completed = [e for e in events if isinstance(e, dict) and e.get("type") == "Completed"] \
        if isinstance(events, list) else []
    return completed[-1].get("turn") if completed else None


def _shown(output: JSON) -> JSON:
    """What a failure shows of an output: its events and outcome stripped of provider
    frames (reports and replay files never hold them), what it persists as it is."""
    if not isinstance(output, dict):
        return output
    return {**{k: v for k, v in output.items() if k != "events"},
            "events": reference_events.strip(output.get("events"))}
