"""Lifecycle: the incremental interface, as a Hypothesis state machine over add / read
(feature `lifecycle`).

One machine drives the target's accumulator and a `refold.reference.anthropic.Accumulator`
given the same events, and checks one concern after every step; each concern is its own
test so a failure is charged to the rules it breaks, not to every lifecycle rule at once:

    AM-LIFE-SNAPSHOT                Messages handed out never change; events are never mutated
    AM-LIFE-FINISHED, -TRUNCATED    `finished`, against a model built from the events alone
    AM-LIFE-ERROR                   `error` is the first error's object, the fold is not
                                    finished, and later events change nothing
    AM-LIFE-AFTER-STOP              events after message_stop change nothing
    AM-LIFE-TRUNCATED, -ERROR,      every Message read equals the reference's at the same
    -AFTER-STOP                     point (the partial Message of a cut or failed stream)

Replaying a printed reproduction: Hypothesis prints `state = SnapshotMachine()` and the
steps. The machines read their target from `LifecycleMachine.bound_check`, so paste the
steps into a test that takes `check` and runs them inside `with bound(check):`.

Events are drawn one at a time with `refold.strategies.anthropic.lifecycle_events` over the
features the target claims: a target that does not claim `robustness` is never sent a ping,
an unknown event or a wrongly typed field.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar

from hypothesis import Phase, given, settings, stateful
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject, json_equal
from refold.reference.anthropic import Accumulator, differences
from refold.run.checks import Check
from refold.run.marks import rule
from refold.strategies.anthropic import allows, lifecycle_events

_STEPS = 15
"""Steps per run: enough for a few blocks, a stop or an error, and events after both."""


def _start(features: frozenset[str]) -> JSONObject:
    message: JSONObject = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
    }
    if allows("usage", features):
        message["usage"] = {"input_tokens": 3, "output_tokens": 1}
    return {"type": "message_start", "message": message}


class _StreamModel:
    """The lifecycle from the events alone: whether a message started, stopped, or
    failed, each decided only while the fold is not over (AM-LIFE-ERROR is terminal,
    AM-LIFE-AFTER-STOP ends the message)."""

    def __init__(self) -> None:
        self.started = False
        self.stopped = False
        self.error: JSONObject | None = None

    @property
    def over(self) -> bool:
        return self.stopped or self.error is not None

    def add(self, event: JSONObject) -> None:
        if self.over:
            return
        kind = event.get("type")
        if kind == "error":
            found = event.get("error")
            self.error = found if isinstance(found, dict) else {}
        elif kind == "message_start" and isinstance(event.get("message"), dict):
            self.started = True  # a later one changes nothing (AM-START-ONCE)
        elif kind == "message_stop" and self.started:
            self.stopped = True  # before message_start it changes nothing (AM-BEFORE-START)


class LifecycleMachine(stateful.RuleBasedStateMachine):
    """Drives the target and the reference through the same events; subclasses check one
    concern in `verify`, after every step."""

    bound_check: ClassVar[Check | None] = None

    def __init__(self) -> None:
        super().__init__()
        if LifecycleMachine.bound_check is None:
            raise RuntimeError("no target bound: run the machine inside `with bound(check):`")
        self.check = LifecycleMachine.bound_check
        self.target = self.check.accumulator()
        self.reference = Accumulator()
        self.stream = _StreamModel()
        self.over_before = False  # whether the fold was over before the last event
        self.given: list[tuple[JSONObject, JSONObject]] = []  # (event passed in, its copy)
        self.handed_out: list[tuple[JSONObject, JSONObject]] = []  # (Message, its copy)

    @stateful.initialize(started=st.booleans())
    def begin(self, started: bool) -> None:
        if started:
            self._add(_start(self.check.target.features))

    @stateful.rule(data=st.data())
    def add(self, data: st.DataObject) -> None:
        # only the shapes the target claims (`refold.strategies.anthropic.allows`)
        event = data.draw(lifecycle_events(features=self.check.target.features), label="event")
        self._add(event)

    def _add(self, event: JSONObject) -> None:
        self.before_add()
        self.over_before = self.stream.over
        self.given.append((event, copy.deepcopy(event)))
        self.target.add(event)
        self.reference.add(copy.deepcopy(event))
        self.stream.add(event)
        self.after_add()

    @stateful.precondition(lambda self: self.stream.started)
    @stateful.rule()
    def read(self) -> None:
        response = self.target.response()
        self.handed_out.append((response, copy.deepcopy(response)))

    @stateful.invariant()
    def concern_holds(self) -> None:
        self.verify()

    def before_add(self) -> None:
        """Called before each event is added (a hook for subclasses)."""

    def after_add(self) -> None:
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
    """AM-LIFE-SNAPSHOT: a Message handed out never changes, and neither do the events.

    Besides the drawn reads, it reads after every step once the stream started, as a caller
    rendering each partial Message does, so a snapshot updated in place shows as soon as
    any event changes the Message."""

    def verify(self) -> None:
        self._verify_unchanged()
        if self.stream.started:
            self.read()

    def _verify_unchanged(self) -> None:
        for number, (event, original) in enumerate(self.given):
            if not json_equal(event, original):
                raise self.check.fail(
                    f"the target mutated event {number} after add(): {_described(original, event)}",
                    rules=("AM-LIFE-SNAPSHOT",),
                    events=self.events(),
                    expected=original,
                    received=event,
                )
        for number, (response, original) in enumerate(self.handed_out):
            if not json_equal(response, original):
                raise self.check.fail(
                    f"Message {number} changed after it was handed out ({len(self.given)} "
                    f"events folded since the start): {_described(original, response)}",
                    rules=("AM-LIFE-SNAPSHOT",),
                    events=self.events(),
                    expected=original,
                    received=response,
                )


class FinishedMachine(LifecycleMachine):
    """AM-LIFE-FINISHED, AM-LIFE-TRUNCATED: `finished` is true exactly once message_stop
    arrived after a message_start with no error before it."""

    def verify(self) -> None:
        expected = self.stream.stopped
        received = self.target.finished
        if received == expected:
            return
        # `finished` has no JSON pointer: charge the clause that decides it
        cut_short = expected is False and self.stream.started and self.stream.error is None
        rule_id = "AM-LIFE-TRUNCATED" if cut_short else "AM-LIFE-FINISHED"
        state = (
            "an error came first"
            if self.stream.error is not None
            else "message_stop arrived after message_start"
            if expected
            else "no message_start yet"
            if not self.stream.started
            else "no message_stop yet"
        )
        raise self.check.fail(
            f"finished is {received}, expected {expected}: {state}",
            rules=(rule_id,),
            events=self.events(),
            expected=expected,
            received=received,
        )


class ErrorMachine(LifecycleMachine):
    """AM-LIFE-ERROR: `error` reads the first error event's object (`{}` without one), the
    fold is not finished, the Message is the one read just before the error, and later
    events change nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.last: JSONObject | None = None  # the Message before the latest event
        self.partial: JSONObject | None = None  # the Message when the error arrived

    def before_add(self) -> None:
        if self.stream.started and not self.stream.over:
            self.last = self.target.response()

    def after_add(self) -> None:
        if self.stream.error is not None and not self.over_before:
            self.partial = self.last if self.stream.started else None

    def verify(self) -> None:
        if self.stream.stopped:
            return  # the fold ended before any error: AM-LIFE-AFTER-STOP's business
        expected, received = self.stream.error, self.target.error
        if (expected is None) != (received is None) or (
            expected is not None and self.check.differences(expected, received)
        ):
            raise self._fail(
                f"error reads {received!r}, expected {expected!r}",
                expected=expected,
                received=received,
            )
        if expected is None:
            return
        if self.target.finished:
            raise self._fail(
                "the fold reports finished after an error event", expected=False, received=True
            )
        if self.partial is None:
            if self.target.response_error() is None:
                raise self._fail(
                    "after an error before any message_start, a Message can be read",
                    expected=None,
                    received=self.target.response(),
                )
            return
        response = self.target.response()
        if self.check.differences(self.partial, response):
            raise self._fail(
                f"the Message changed with the error or after it: "
                f"{_described(self.partial, response)}",
                expected=self.partial,
                received=response,
            )

    def _fail(self, summary: str, *, expected: JSON, received: JSON) -> AssertionError:
        return self.check.fail(
            summary,
            rules=("AM-LIFE-ERROR",),
            events=self.events(),
            expected=expected,
            received=received,
        )


class AfterStopMachine(LifecycleMachine):
    """AM-LIFE-AFTER-STOP: once message_stop ended the message, later events change neither
    the Message nor `finished`."""

    def __init__(self) -> None:
        super().__init__()
        self.at_stop: JSONObject | None = None
        self.finished_at_stop = False

    def after_add(self) -> None:
        if self.stream.stopped and not self.over_before:
            self.at_stop = self.target.response()
            self.finished_at_stop = self.target.finished

    def verify(self) -> None:
        if self.at_stop is None:
            return
        response = self.target.response()
        if self.check.differences(self.at_stop, response):
            raise self._fail(
                f"the Message changed after message_stop: {_described(self.at_stop, response)}",
                expected=self.at_stop,
                received=response,
            )
        if self.finished_at_stop and not self.target.finished:
            raise self._fail(
                "finished went back to False after message_stop", expected=True, received=False
            )
        # Whether an `error` event after message_stop is readable is not checked: "events
        # after message_stop change nothing" (AM-LIFE-AFTER-STOP) and "error ... is
        # terminal wherever it arrives" (AM-BEFORE-START) read both ways; the Message and
        # `finished` are what both readings fix.

    def _fail(self, summary: str, *, expected: JSON, received: JSON) -> AssertionError:
        return self.check.fail(
            summary,
            rules=("AM-LIFE-AFTER-STOP",),
            events=self.events(),
            expected=expected,
            received=received,
        )


class ReferenceMachine(LifecycleMachine):
    """AM-LIFE-TRUNCATED, AM-LIFE-ERROR, AM-LIFE-AFTER-STOP: at every step the Message
    equals the reference's, so a cut or failed stream reads as the partial Message."""

    def verify(self) -> None:
        if not self.stream.started:
            return
        expected, received = self.reference.response(), self.target.response()
        found = self.check.differences(expected, received)
        if not found:
            return
        summary = (
            f"after {len(self.given)} events (finished: {self.stream.stopped}, "
            f"error: {self.stream.error is not None}) the Message differs from the "
            f"reference's at {len(found)} place(s)"
        )
        # Every earlier step agreed: the latest event made the difference. After the end
        # of the message, or with an error, that is the lifecycle rule's fault, not the
        # fault of the rule owning the place that changed.
        if self.over_before or self.stream.error is not None:
            ended = "AM-LIFE-AFTER-STOP" if self.stream.stopped else "AM-LIFE-ERROR"
            raise self.check.fail(
                f"{summary}: {_described(expected, received)}",
                rules=(ended,),
                events=self.events(),
                expected=expected,
                received=received,
            )
        raise self.check.fail(
            summary, events=self.events(), differences=found, expected=expected, received=received
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


@rule("AM-LIFE-SNAPSHOT")
def test_a_message_handed_out_never_changes_and_events_are_never_mutated(check: Check) -> None:
    _run(SnapshotMachine, check)


@rule("AM-LIFE-FINISHED", "AM-LIFE-TRUNCATED")
def test_finished_exactly_once_message_stop_follows_message_start_without_error(
    check: Check,
) -> None:
    _run(FinishedMachine, check)


@rule("AM-LIFE-ERROR")
def test_an_error_is_recorded_leaves_the_fold_unfinished_and_ends_it(check: Check) -> None:
    _run(ErrorMachine, check)


@rule("AM-LIFE-AFTER-STOP")
def test_events_after_message_stop_change_nothing(check: Check) -> None:
    _run(AfterStopMachine, check)


@rule("AM-LIFE-TRUNCATED", "AM-LIFE-ERROR", "AM-LIFE-AFTER-STOP")
def test_every_message_equals_the_reference_at_the_same_point(check: Check) -> None:
    _run(ReferenceMachine, check)


def _before_start(event: JSONObject) -> bool:
    """Events that start nothing and end nothing: everything but a usable message_start
    and an error (which would end the fold: AM-LIFE-ERROR's business)."""
    kind = event.get("type")
    return kind != "error" and not (
        kind == "message_start" and isinstance(event.get("message"), dict)
    )


@rule("AM-LIFE-EMPTY")
@given(data=st.data())
def test_reading_before_a_message_start_raises(check: Check, data: st.DataObject) -> None:
    claimed = check.target.features
    events = data.draw(
        st.lists(lifecycle_events(features=claimed).filter(_before_start), max_size=4),
        label="events",
    )
    accumulator = check.accumulator()
    for event in [None, *events]:
        if event is not None:
            accumulator.add(event)
        if accumulator.response_error() is None:
            raise check.fail(
                "response() returned a Message before any message_start was added",
                rules=("AM-LIFE-EMPTY",),
                events=list(accumulator.events),
            )
    accumulator.add(_start(claimed))
    accumulator.response()
