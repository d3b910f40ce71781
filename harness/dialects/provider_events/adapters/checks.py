"""What the events suites assert: an adapter's output held to events.md.

`EventsCheck` is the `Check` of the `provider-events` dialect. Each assertion runs the
adapter over one stream (`{"begin": SOURCE}`, then the frames), then hands its whole
output to the library checker (`refold.reference.events.check_events`), whose every
violation names its rule: a failure is evidence against exactly the rules violated (and
is masked when they are all known failures of a baseline). What one output alone does not
show is charged by the places it points at (verdicts.md §2,
`refold.reference.events.differing_events`): the differential against the reference
adapter and a rule example's expected events, event by event after aligning the two
lists, each event or field that differs to its rule; an outcome to the rule of the kind
that differs; a raise reading frame k to the rules of the events the reference emits for
frame k (and EV-FRAME-COVER), those of the running test when it has any. Each violation
states its impact (verdicts.md §3), which the failure's `impact` reads.

A stream of a source the adapter does not accept is not run: the test is skipped with
that reason, as a test of a feature the target does not claim is.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import pytest

from refold.errors import TargetError
from refold.reference import JSON, JSONObject, impact_of, scrub
from refold.reference import events as reference_events
from refold.reference.events import Violation, differences
from refold.run.checks import Check, ConformanceFailure
from refold.verdicts.crashes import Crash, signature

from .. import begin, comparable, frames_of, source_of
from .python import EventsTarget, unaccepted

__all__ = ["EventsCheck"]

_SHOWN_VIOLATIONS = 8
_AT_FRAME = re.compile(r"\bframe[ (](\d+)\b|^(end)\(\) raised")
"""How a target's error names the frame it was reading: `frame(3) raised ...` (Python
adapters, in process or in a worker), `... frame 3` (refold-events/1 exchanges), or the
end of the body (`end() raised ...`)."""


@dataclass
class AdapterRaise(Crash):
    """A raise located at the frame the adapter was reading, and charged by the events
    the reference adapter emits for that frame (`missing_at_raise`); `missing` lists
    them, as the failure message shows them."""

    frame: int | None = None
    """0-based: the frame the adapter was reading (item `frame + 2` of the stream); None
    at the end of the body."""
    missing: tuple[str, ...] = ()

    def describe(self, chunks: int | None, *, item: str = "chunk") -> list[str]:
        """The lines a failure message shows about the raise."""
        where = "at the end of the body" if self.frame is None else f"reading {item} {self.frame}"
        return [
            f"raised {where} ({self.operation}); charged to {', '.join(self.charged)}, "
            f"the rules of what it left undone there:",
            *(f"  {line}" for line in self.missing),
        ]


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

    def fail(
        self,
        summary: str,
        *,
        rules: Sequence[str] | None = None,
        events: list[JSON] | None = None,
        found_by: str | None = None,
        **details: object,
    ) -> ConformanceFailure:
        """As `Check.fail`; a failure that names no stream shows the last one this test
        ran, and one with an expected and a received value their differences, so every
        failure shows the frames it is about and what differed."""
        if events is None and "chunks" not in details and self._last_stream is not None:
            details["chunks"] = self._last_stream
        if "differences" not in details and "expected" in details and "received" in details:
            # provider frames shown as "(present, not kept)", as every persisted record does
            found = differences(scrub(details["expected"]), scrub(details["received"]))
            details["shown"] = tuple(str(d) for d in found[:_SHOWN_VIOLATIONS])
            # what differed is not the fold's places, but it is what the failure costs
            details.setdefault(
                "violation_impacts", (impact_of(found, crashed=False) or "corruption",)
            )
        return super().fail(summary, rules=rules, events=events, found_by=found_by, **details)

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

    def keeps_contract(
        self,
        source: str,
        frames: Sequence[JSON],
        *,
        known: JSON = None,
        canaries: Sequence[str] = (),
    ) -> JSONObject:
        """Assert that the adapter's output for `frames` breaks no rule the checker
        checks (held to `known`, the completion the frames were drawn from, when given),
        and that `canaries` appear nowhere in what it persists; return the output."""
        __tracebackhide__ = True
        stream, output = self.normalized(source, frames)
        self._judge(stream, output, known=known, canaries=canaries)
        return output

    def fold(self, chunks: list[JSON], *, ablate: bool = False) -> JSONObject:
        """Run the adapter over a stream; a raise it names the frame of is charged by
        that frame's places (`AdapterRaise`), any other misbehaviour as `Check.fold`
        (the dialect has no `Charging`: `ablate` changes nothing)."""
        __tracebackhide__ = True
        try:
            return self.target.fold(chunks)
        except TargetError as exc:
            located = self._raise_at_frame(chunks, exc)
            if located is None:
                return super().fold(chunks)
            raise located from exc

    def _raise_at_frame(self, stream: list[JSON], error: TargetError) -> ConformanceFailure | None:
        """The failure of a raise at the frame the error names, charged by the events the
        reference adapter emits for that frame; None when no frame is named."""
        lines = str(error).strip().splitlines()
        named = _AT_FRAME.search(lines[0]) if lines else None
        frames = frames_of(stream)
        number = len(frames) if named is None or named.group(2) else int(named.group(1))
        if named is None or number > len(frames):
            return None
        reference = reference_events.Adapter(source_of(stream))
        for frame in frames[:number]:
            reference.frame(frame)
        if number < len(frames):
            due = reference_events.strip(reference.frame(frames[number]))
            found = reference_events.missing_at_raise(
                number, frames[number], due if isinstance(due, list) else []
            )
        else:
            end = reference.end()
            due, error_of = reference_events.strip(end.get("events")), end.get("error")
            kind = error_of.get("kind") if isinstance(error_of, dict) else None
            found = reference_events.missing_at_raise(
                number,
                None,
                due if isinstance(due, list) else [],
                at_end=(end.get("outcome"), kind),
            )
        if not found:  # nothing due at that frame (after an error frame): the outcome is
            found = _outcome_due(stream, number)
        # a crash is not masked while the test runs (the plugin reads one charged only to
        # known failures as xfailed): only rules of unclaimed features are left out
        judged = [v for v in found if self.dialect.rules[v.rule].feature in self.target.features]
        charged = [v for v in judged if v.rule in self.rules] or judged
        if not charged:
            return None
        crash = AdapterRaise(
            self._ops[0],
            signature(error),
            at_chunk=min(number + 2, len(stream)),
            analysed=True,
            charged=tuple(dict.fromkeys(v.rule for v in charged)),
            frame=number if number < len(frames) else None,
            missing=tuple(str(v) for v in found),
        )
        return self.fail(
            f"the target failed ({error.kind})",
            chunks=stream,
            target_error=str(error),
            crash=crash,
            violation_impacts=tuple(v.cost for v in charged),
        )

    def agrees_with_reference(
        self, source: str, frames: Sequence[JSON], *, canaries: Sequence[str] = ()
    ) -> JSONObject:
        """Assert the contract, then that strip(E) and the outcome equal the reference
        adapter's for the same frames (events.md §5.6, the differential), each event or
        outcome that differs charged to the rule of its place."""
        __tracebackhide__ = True
        stream, output = self.normalized(source, frames)
        self._judge(stream, output, canaries=canaries)
        expected, received = comparable(self.dialect.fold(stream)), comparable(output)
        assert isinstance(expected, dict)
        outcome = (expected.get("outcome"), expected.get("error_kind"))
        got = (
            (received.get("outcome"), received.get("error_kind"))
            if isinstance(received, dict)
            else (None, None)
        )
        found = reference_events.differing_events(
            _listed(expected.get("events")),
            _listed(received.get("events") if isinstance(received, dict) else None),
            expected_error=outcome[0] == "error",
        )
        found += reference_events.differing_outcome(outcome, got)
        self._raise_violations(
            stream,
            found,
            "the adapter's stripped events differ from the reference adapter's",
            expected=expected,
            received=received,
        )
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
                raise self.fail(
                    f"two splits of one completion give different stripped "
                    f"turns at {len(found)} place(s); the first split's turn "
                    f"is expected",
                    chunks=stream,
                    differences=found,
                    expected=first[1],
                    received=turn,
                )

    def emits(
        self,
        source: str,
        frames: Sequence[JSON],
        expected: Sequence[JSON],
        *,
        kinds: Collection[str],
    ) -> JSONObject:
        """Assert that the adapter's events, stripped (events.md §3) and only those whose
        `type` is in `kinds`, are `expected`; return the output. A rule example asserts
        this: it is evidence against the rules it is marked with only."""
        __tracebackhide__ = True
        stream, output = self.normalized(source, frames)
        events = output.get("events")
        received = [
            e
            for e in reference_events.strip(events if isinstance(events, list) else []) or []
            if isinstance(e, dict) and e.get("type") in kinds
        ]
        found = reference_events.differing_events(list(expected), received)
        self._raise_violations(
            stream,
            self._marked(found),
            f"the adapter's {', '.join(sorted(kinds))} events differ from those the rule calls for",
            expected=list(expected),
            received=received,
        )
        return output

    def ends(
        self, source: str, frames: Sequence[JSON], outcome: str, *, kind: str | None = None
    ) -> JSONObject:
        """Assert the stream's outcome (and, for `error`, its kind when given); return
        the output."""
        __tracebackhide__ = True
        stream, output = self.normalized(source, frames)
        found = output.get("outcome")
        received = found if isinstance(found, dict) else {"outcome": found}
        error = received.get("error")
        got = (received.get("outcome"), error.get("kind") if isinstance(error, dict) else None)
        if got[0] != outcome or (kind is not None and got[1] != kind):
            found = reference_events.differing_outcome((outcome, kind if kind else got[1]), got)
            raise self.fail(
                f"the stream's outcome is {got[0]!r} ({got[1]}); expected "
                f"{outcome!r}" + (f" ({kind})" if kind else ""),
                chunks=stream,
                rules=tuple(dict.fromkeys(v.rule for v in self._marked(found))),
                violation_impacts=tuple(v.cost for v in found),
                expected={"outcome": outcome, "kind": kind},
                received={"outcome": got[0], "kind": got[1]},
            )
        return output

    def holds(
        self, source: str, frames: Sequence[JSON], *, canaries: Sequence[str] = ()
    ) -> JSONObject:
        """Assert that the event checker finds no violation of the running test's own
        rules in the adapter's output (a defect of another rule is other tests' to find);
        return the output."""
        __tracebackhide__ = True
        stream, output = self.normalized(source, frames)
        self._judge(stream, output, canaries=canaries, only=frozenset(self.rules))
        return output

    def _judge(
        self,
        stream: list[JSON],
        output: JSONObject,
        *,
        known: JSON = None,
        canaries: Sequence[str] = (),
        only: frozenset[str] | None = None,
    ) -> None:
        __tracebackhide__ = True
        source, frames = source_of(stream), frames_of(stream)
        target = self.target
        violations = reference_events.check_events(
            source,
            frames,
            output.get("events") or [],
            output.get("outcome"),
            output.get("persisted"),
            known=known,
            canaries=canaries,
            provider=target.provider or source,
            turn_opaque="events.turn_opaque" in target.features,
            fold=self._fold_events if target.offers_fold else None,
            emitted=output.get("emitted"),
        )
        judged = [v for v in self._judged(violations) if only is None or v.rule in only]
        rules = tuple(dict.fromkeys(v.rule for v in judged))
        self._raise_violations(
            stream,
            judged,
            f"the adapter's output breaks {', '.join(rules)}",
            received=_shown(output),
        )

    def _judged(self, violations: Sequence[Violation]) -> list[Violation]:
        """`violations` less those of known failures and of features not claimed."""
        return [
            v
            for v in violations
            if v.rule not in self.masked
            and self.dialect.rules[v.rule].feature in self.target.features
        ]

    def _marked(self, violations: Sequence[Violation]) -> list[Violation]:
        """A rule example's violations, each charged to its place's rule when the example
        is marked with it, else to the example's own rules (what it asserts is evidence
        against those only)."""
        return [
            v
            if v.rule in self.rules
            else Violation(rule_id, v.message, v.event, v.frame, v.pointer, v.impact)
            for v in violations
            for rule_id in ((v.rule,) if v.rule in self.rules else self.rules)
        ]

    def _raise_violations(
        self, stream: list[JSON], violations: Sequence[Violation], summary: str, **details: JSON
    ) -> None:
        """Fail with `violations` (once each, the first `_SHOWN_VIOLATIONS` shown) as the
        evidence, unless there are none (those of known failures and unclaimed features
        are not judged)."""
        __tracebackhide__ = True
        judged = list(dict.fromkeys(self._judged(violations)))
        if not judged:
            return
        shown = judged[:_SHOWN_VIOLATIONS]
        more = len(judged) - len(shown)
        rules = tuple(dict.fromkeys(v.rule for v in judged))
        raise ConformanceFailure(
            self.rules,
            summary + (f" ({more} more violations not shown)" if more > 0 else ""),
            chunks=stream,
            claimed=self.target.features,
            violations=tuple((v.rule, str(v)) for v in shown)
            + tuple((r, f"{r}: (more)") for r in rules if r not in {v.rule for v in shown}),
            violation_impacts=tuple(v.cost for v in judged),
            **details,
        )

    def _fold_events(self, events: list[JSON]) -> JSON:
        try:
            return self.target.fold_events(events)
        except TargetError as exc:
            raise self.fail(
                f"the adapter's fold of events failed ({exc.kind})", target_error=str(exc)
            ) from exc


def _outcome_due(stream: list[JSON], number: int) -> list[Violation]:
    """The reference's outcome of the whole stream, missing since the adapter raised at
    frame `number`."""
    end = reference_events.normalize(source_of(stream), frames_of(stream))
    outcome = end.get("outcome")
    error = outcome.get("error") if isinstance(outcome, dict) else None
    due = (
        outcome.get("outcome") if isinstance(outcome, dict) else outcome,
        error.get("kind") if isinstance(error, dict) else None,
    )
    return [
        Violation(
            v.rule,
            f"the adapter raised reading frame {number}, where nothing is "
            f"due but the stream's outcome {due[0]!r} ({due[1]})",
            frame=number,
            pointer=v.pointer,
            impact="crash",
        )
        for v in reference_events.missing_at_raise(number, None, [], at_end=due)
    ]


def _listed(value: JSON) -> list[JSON]:
    return value if isinstance(value, list) else []


def _turn(output: JSONObject) -> JSON:
    events = output.get("events")
    completed = (
        [e for e in events if isinstance(e, dict) and e.get("type") == "Completed"]
        if isinstance(events, list)
        else []
    )
    return completed[-1].get("turn") if completed else None


def _shown(output: JSON) -> JSON:
    """What a failure shows of an output: its events and outcome stripped of provider
    frames (reports and replay files never hold them), what it persists as it is."""
    if not isinstance(output, dict):
        return output
    return {
        **{k: v for k, v in output.items() if k != "events"},
        "events": reference_events.strip(output.get("events")),
    }
