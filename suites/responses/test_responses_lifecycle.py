"""Lifecycle: the incremental interface, as a Hypothesis state machine over add / read
(feature `lifecycle`).

One machine drives the target's accumulator and a `refold.reference.responses.Accumulator`
given the same events, and checks one concern after every step; each concern is its own
test so a failure is charged to the rules it breaks, not to every lifecycle rule at once:

    LIFE-RS-SNAPSHOT            Responses handed out never change; events are never mutated
    LIFE-RS-FINISHED            `finished`, against a model built from the events alone
    RS-ERROR-EVENT              an `error` event changes neither the Response nor `finished`
    LIFE-RS-AFTER               after a terminal event only terminal events, and item events
                                under a terminal without output, change the Response
    LIFE-RS-SNAPSHOT, -AFTER    every Response read equals the reference's at the same point

Replaying a printed reproduction: Hypothesis prints `state = SnapshotMachine()` and the
steps. The machines read their target from `LifecycleMachine.bound_check`, so paste the
steps into a test that takes `check` and runs them inside `with bound(check):`.

Events are drawn one at a time with `refold.strategies.responses.lifecycle_events` over the
features the target claims: a target that does not claim `robustness` is never sent a
keepalive, an unknown event or a wrongly typed field.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar

from hypothesis import Phase, given, settings, stateful
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject, json_equal
from refold.reference.responses import Accumulator, differences, fold
from refold.run.checks import Check
from refold.run.marks import rule
from refold.strategies.responses import event_streams, lifecycle_events

_STEPS = 15
"""Steps per run: enough for two items, a terminal or an error, and events after both."""
_TERMINALS = frozenset({"response.completed", "response.incomplete", "response.failed"})
_CREATED: JSONObject = {
    "type": "response.created",
    "response": {
        "id": "resp_1",
        "object": "response",
        "created_at": 1_750_000_000,
        "model": "gpt-5",
        "status": "in_progress",
        "output": [],
    },
}


def _terminal(event: JSONObject) -> bool:
    """A terminal event that finishes the fold (RS-WRONG-TYPE: its response an object)."""
    kind = event.get("type")
    return isinstance(kind, str) and kind in _TERMINALS and isinstance(event.get("response"), dict)


class _StreamModel:
    """The lifecycle from the events alone: whether a terminal event arrived and whether
    the latest one sent a non-empty output (RS-OUTPUT-TERMINAL)."""

    def __init__(self) -> None:
        self.events = 0
        self.finished = False
        self.whole_output = False

    def add(self, event: JSONObject) -> None:
        self.events += 1
        if _terminal(event):
            self.finished = True
            output = event["response"].get("output")
            self.whole_output = isinstance(output, list) and bool(output)


class LifecycleMachine(stateful.RuleBasedStateMachine):
    """Drives the target and the reference through the same events; subclasses check one
    concern in `verify`, after every step."""

    bound_check: ClassVar[Check | None] = None

    def __init__(self) -> None:
        super().__init__()
        if LifecycleMachine.bound_check is None:
            raise RuntimeError("no target bound: run the machine inside `with bound(check):`")
        self.check = LifecycleMachine.bound_check
        self.target = self.check.accumulator(ablate=True)
        self.reference = Accumulator()
        self.stream = _StreamModel()
        self.finished_before = False  # whether the fold was finished before the last event
        self.given: list[tuple[JSONObject, JSONObject]] = []  # (event passed in, its copy)
        self.handed_out: list[tuple[JSONObject, JSONObject]] = []  # (Response, its copy)

    @stateful.initialize(started=st.booleans())
    def begin(self, started: bool) -> None:
        if started:
            self._add(copy.deepcopy(_CREATED))

    @stateful.rule(data=st.data())
    def add(self, data: st.DataObject) -> None:
        # only the shapes the target claims (`refold.strategies.responses.allows`)
        event = data.draw(lifecycle_events(features=self.check.target.features), label="event")
        self._add(event)

    def _add(self, event: JSONObject) -> None:
        self.before_add(event)
        self.finished_before = self.stream.finished
        self.given.append((event, copy.deepcopy(event)))
        self.target.add(event)
        self.reference.add(copy.deepcopy(event))
        self.stream.add(event)
        self.after_add(event)

    @stateful.precondition(lambda self: self.stream.events > 0)
    @stateful.rule()
    def read(self) -> None:
        response = self._read()
        self.handed_out.append((response, copy.deepcopy(response)))

    def _read(self) -> JSONObject:
        """The target's Response (the accumulator is ablating: a crash reading it after
        an incomplete or failed terminal is charged by the harness)."""
        response: JSONObject = self.target.response()
        return response

    @stateful.invariant()
    def concern_holds(self) -> None:
        self.verify()

    def before_add(self, event: JSONObject) -> None:
        """Called before each event is added (a hook for subclasses)."""

    def after_add(self, event: JSONObject) -> None:
        """Called after each event is added (a hook for subclasses)."""

    def verify(self) -> None:
        """Check this machine's concern; raise the check's failure when it does not hold."""
        raise NotImplementedError

    def events(self) -> list[JSON]:
        return [original for _, original in self.given]


def _described(expected: JSON, received: JSON) -> str:
    found = differences(expected, received)
    return "; ".join(str(d) for d in found[:3]) + (
        f" (+{len(found) - 3})" if len(found) > 3 else ""
    )


class SnapshotMachine(LifecycleMachine):
    """LIFE-RS-SNAPSHOT: a Response handed out never changes, and neither do the events.

    Besides the drawn reads, it reads after every step once an event arrived, as a caller
    rendering each partial Response does, so a snapshot updated in place shows as soon as
    any event changes the Response."""

    def verify(self) -> None:
        self._verify_unchanged()
        if self.stream.events:
            self.read()

    def _verify_unchanged(self) -> None:
        for number, (event, original) in enumerate(self.given):
            if not json_equal(event, original):
                raise self.check.fail(
                    f"the target mutated event {number} after add(): {_described(original, event)}",
                    rules=("LIFE-RS-SNAPSHOT",),
                    events=self.events(),
                    expected=original,
                    received=event,
                )
        for number, (response, original) in enumerate(self.handed_out):
            if not json_equal(response, original):
                raise self.check.fail(
                    f"Response {number} changed after it was handed out ({len(self.given)} "
                    f"events folded since the start): {_described(original, response)}",
                    rules=("LIFE-RS-SNAPSHOT",),
                    events=self.events(),
                    expected=original,
                    received=response,
                )


class FinishedMachine(LifecycleMachine):
    """LIFE-RS-FINISHED: `finished` is true exactly once a terminal event with a response
    object arrived; an `error` event, the last item's done event or a keepalive never
    finish the fold."""

    def verify(self) -> None:
        expected = self.stream.finished
        received = self.target.finished
        if received != expected:
            state = "a terminal event arrived" if expected else "no terminal event yet"
            raise self.check.fail(
                f"finished is {received}, expected {expected}: {state}",
                rules=("LIFE-RS-FINISHED",),
                events=self.events(),
                expected=expected,
                received=received,
            )


class ErrorMachine(LifecycleMachine):
    """RS-ERROR-EVENT: an `error` event is not part of the Response and finishes nothing:
    the Response and `finished` read after it are those read just before it."""

    def __init__(self) -> None:
        super().__init__()
        self.before: tuple[JSONObject | None, bool] | None = None

    def before_add(self, event: JSONObject) -> None:
        self.before = None
        if event.get("type") == "error":
            read = self._read() if self.stream.events else None
            self.before = (read, self.target.finished)

    def verify(self) -> None:
        if self.before is None:
            return
        read, finished = self.before
        if self.target.finished != finished:
            raise self._fail(
                f"finished went from {finished} to {not finished} with an error event",
                expected=finished,
                received=not finished,
            )
        response = self._read()
        if read is not None and self.check.differences(read, response):
            raise self._fail(
                f"the Response changed with an error event: {_described(read, response)}",
                expected=read,
                received=response,
            )
        self.before = None

    def _fail(self, summary: str, *, expected: JSON, received: JSON) -> AssertionError:
        return self.check.fail(
            summary,
            rules=("RS-ERROR-EVENT",),
            events=self.events(),
            expected=expected,
            received=received,
        )


class AfterMachine(LifecycleMachine):
    """LIFE-RS-AFTER: once finished, the fold stays finished, and an event that is neither
    a terminal event nor (under a terminal that sent no output) an item event changes
    nothing: the result is the terminal's (RS-TERMINAL-BASE), filled only from earlier
    lifecycle responses (RS-ENV-FILL)."""

    def __init__(self) -> None:
        super().__init__()
        self.last: JSONObject | None = None

    def before_add(self, event: JSONObject) -> None:
        changes = _terminal(event) or ("output_index" in event and not self.stream.whole_output)
        self.last = self._read() if self.stream.finished and not changes else None

    def verify(self) -> None:
        if self.finished_before and not self.target.finished:
            raise self._fail(
                "finished went back to False after a terminal event", expected=True, received=False
            )
        if self.last is None:
            return
        response = self._read()
        if self.check.differences(self.last, response):
            raise self._fail(
                f"an event after the terminal changed the Response: "
                f"{_described(self.last, response)}",
                expected=self.last,
                received=response,
            )
        self.last = None

    def _fail(self, summary: str, *, expected: JSON, received: JSON) -> AssertionError:
        return self.check.fail(
            summary,
            rules=("LIFE-RS-AFTER",),
            events=self.events(),
            expected=expected,
            received=received,
        )


class ReferenceMachine(LifecycleMachine):
    """LIFE-RS-SNAPSHOT, LIFE-RS-AFTER: at every step the Response equals the reference's,
    so a stream cut anywhere reads as its snapshot."""

    def verify(self) -> None:
        if not self.stream.events:
            return
        expected, received = self.reference.response(), self._read()
        found = self.check.differences(expected, received)
        if not found:
            return
        summary = (
            f"after {len(self.given)} events (finished: {self.stream.finished}) the "
            f"Response differs from the reference's at {len(found)} place(s)"
        )
        # Every earlier step agreed: the latest event made the difference. After the
        # terminal an event other than a terminal is LIFE-RS-AFTER's (the harness clears
        # it when the same event before the terminal makes the same difference); a
        # terminal replaces the result (RS-TERMINAL-REPEAT), so the difference is its
        # places' rules', as before the terminal (the snapshot is folded by the same
        # rules as the result).
        if self.finished_before and not _terminal(self.given[-1][1]):
            raise self.check.fail(
                summary,
                rules=("LIFE-RS-AFTER",),
                events=self.events(),
                differences=found,
                expected=expected,
                received=received,
            )
        raise self.check.fail(
            summary,
            found_by="read",
            events=self.events(),
            differences=found,
            expected=expected,
            received=received,
        )


@contextmanager
def bound(check: Check) -> Iterator[None]:
    """Bind the lifecycle machines to `check`'s target for the duration of the block."""
    LifecycleMachine.bound_check = check
    try:
        yield
    finally:
        LifecycleMachine.bound_check = None


def _run(machine: type[LifecycleMachine], check: Check) -> None:
    # The explain phase replays a shrunk machine once per step to say which steps could
    # vary: slow, and a step list already explains itself.
    phases = tuple(phase for phase in settings().phases if phase != Phase.explain)
    with bound(check):
        stateful.run_state_machine_as_test(
            machine, settings=settings(stateful_step_count=_STEPS, phases=phases)
        )


@rule("LIFE-RS-SNAPSHOT")
def test_a_response_handed_out_never_changes_and_events_are_never_mutated(check: Check) -> None:
    _run(SnapshotMachine, check)


@rule("LIFE-RS-FINISHED")
def test_finished_exactly_once_a_terminal_event_arrived(check: Check) -> None:
    _run(FinishedMachine, check)


@rule("RS-ERROR-EVENT", "LIFE-RS-FINISHED")
def test_an_error_event_changes_nothing_and_finishes_nothing(check: Check) -> None:
    _run(ErrorMachine, check)


@rule("LIFE-RS-AFTER")
def test_after_the_terminal_only_terminals_and_recovered_items_change_the_response(
    check: Check,
) -> None:
    _run(AfterMachine, check)


@rule("LIFE-RS-SNAPSHOT", "LIFE-RS-AFTER")
def test_every_response_equals_the_reference_at_the_same_point(check: Check) -> None:
    _run(ReferenceMachine, check)


@rule("LIFE-RS-SNAPSHOT", "LIFE-RS-AFTER", "LIFE-RS-FINISHED")
@given(data=st.data())
def test_cut_streams_and_events_after_the_terminal_fold_like_the_reference(
    check: Check, data: st.DataObject
) -> None:
    # damage that needs `lifecycle`: a truncation reads as the snapshot, events after the
    # terminal are folded (the fold-only damage is the differential suite's)
    features = check.target.features - {"robustness", "sse", "events"}
    events = data.draw(event_streams(features=features), label="events")
    check.folds_to(
        list(events), fold(events), what="the reference's fold", ablate=True, found_by="fold"
    )


@rule("LIFE-RS-EMPTY")
def test_reading_before_any_event_raises_and_one_event_is_enough(check: Check) -> None:
    accumulator = check.accumulator()
    found = accumulator.response_error()
    if found is None:
        raise check.fail(
            "response() returned a Response before any event was added",
            rules=("LIFE-RS-EMPTY",),
            events=[],
        )
    accumulator.add(copy.deepcopy(_CREATED))
    accumulator.response()
