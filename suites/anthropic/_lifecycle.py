"""The Anthropic dialect's lifecycle (`refold.suites._lifecycle`, its kit's `LIFECYCLE`):
its model of the lifecycle from the events alone, how a wrong `finished` and a read unlike
the reference's are charged, its own concerns (AM-LIFE-ERROR, AM-LIFE-AFTER-STOP), and
reading before a message_start.

    AM-LIFE-SNAPSHOT                Messages handed out never change; events are never mutated
    AM-LIFE-FINISHED, -TRUNCATED    `finished`, against a model built from the events alone
    AM-LIFE-ERROR                   `error` is the first error's object, the fold is not
                                    finished, and later events change nothing
    AM-LIFE-AFTER-STOP              events after message_stop change nothing
    AM-LIFE-TRUNCATED, -ERROR,      every Message read equals the reference's at the same
    -AFTER-STOP                     point (the partial Message of a cut or failed stream)

Events are drawn one at a time with `refold.strategies.anthropic.lifecycle_events` over the
features the target claims: a target that does not claim `robustness` is never sent a ping,
an unknown event or a wrongly typed field.
"""

from __future__ import annotations

from hypothesis import strategies as st

from refold.reference import JSONObject
from refold.reference.anthropic import Accumulator
from refold.run.checks import Check
from refold.strategies.anthropic import allows, lifecycle_events

from .._lifecycle import Lifecycle, LifecycleMachine, Mismatch
from .._lifecycle_error import TerminalErrorMachine

__all__ = [
    "LIFECYCLE_MACHINE",
    "AfterStopMachine",
    "ErrorMachine",
    "reading_before_a_message_start",
]


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
        self.readable = False  # a usable message_start arrived
        self.finished = False  # a message_stop arrived after it
        self.error: JSONObject | None = None

    @property
    def over(self) -> bool:
        return self.finished or self.error is not None

    def add(self, event: JSONObject) -> None:
        if self.over:
            return
        kind = event.get("type")
        if kind == "error":
            found = event.get("error")
            self.error = found if isinstance(found, dict) else {}
        elif kind == "message_start" and isinstance(event.get("message"), dict):
            self.readable = True  # a later one changes nothing (AM-START-ONCE)
        elif kind == "message_stop" and self.readable:
            self.finished = True  # before message_start it changes nothing (AM-BEFORE-START)

    def wrong_finished(self, machine: LifecycleMachine, received: bool) -> AssertionError:
        cut_short = not self.finished and self.readable and self.error is None
        rule_id = "AM-LIFE-TRUNCATED" if cut_short else "AM-LIFE-FINISHED"
        state = (
            "an error came first"
            if self.error is not None
            else "message_stop arrived after message_start"
            if self.finished
            else "no message_start yet"
            if not self.readable
            else "no message_stop yet"
        )
        return machine.finished_failure(received, rule_id, state)

    def unlike_reference(self, machine: LifecycleMachine, read: Mismatch) -> AssertionError:
        read = read._replace(summary=f"{read.summary} (error: {self.error is not None})")
        # Every earlier step agreed: the latest event made the difference. After the end
        # of the message, or with an error, that is the lifecycle rule's fault, not the
        # fault of the rule owning the place that changed.
        if machine.over_before or self.error is not None:
            ended = "AM-LIFE-AFTER-STOP" if self.finished else "AM-LIFE-ERROR"
            return machine.charged(
                f"{read.summary}: {machine.described(read.expected, read.received)}",
                (ended,),
                expected=read.expected,
                received=read.received,
            )
        return machine.read_failure(read)


LIFECYCLE_MACHINE = Lifecycle(
    items=lambda claimed: lifecycle_events(features=claimed),
    reference=Accumulator,
    model=_StreamModel,
    start=_start,
)
"""The Anthropic lifecycle: events, a machine maybe begun with a message_start."""


class ErrorMachine(TerminalErrorMachine):
    """AM-LIFE-ERROR: `error` reads the first error event's object (`{}` without one), the
    fold is not finished, the Message is the one read just before the error, and later
    events change nothing."""

    concern_rule = "AM-LIFE-ERROR"
    error_item = "error event"
    changed = "the Message changed with the error or after it"

    def verify_unreadable(self) -> None:
        if self.target.response_error() is None:
            raise self.failure(
                "after an error before any message_start, a Message can be read",
                expected=None,
                received=self.target.response(),
            )


class AfterStopMachine(LifecycleMachine):
    """AM-LIFE-AFTER-STOP: once message_stop ended the message, later events change neither
    the Message nor `finished`."""

    concern_rule = "AM-LIFE-AFTER-STOP"

    def __init__(self) -> None:
        super().__init__()
        self.at_stop: JSONObject | None = None
        self.finished_at_stop = False

    def after_add(self, item: JSONObject) -> None:
        if self.stream.finished and not self.over_before:
            self.at_stop = self.target.response()
            self.finished_at_stop = self.target.finished

    def verify(self) -> None:
        if self.at_stop is None:
            return
        response = self.target.response()
        if self.check.differences(self.at_stop, response):
            raise self.failure(
                f"the Message changed after message_stop: {self.described(self.at_stop, response)}",
                expected=self.at_stop,
                received=response,
            )
        if self.finished_at_stop and not self.target.finished:
            raise self.failure(
                "finished went back to False after message_stop", expected=True, received=False
            )
        # Whether an `error` event after message_stop is readable is not checked: "events
        # after message_stop change nothing" (AM-LIFE-AFTER-STOP) and "error ... is
        # terminal wherever it arrives" (AM-BEFORE-START) read both ways; the Message and
        # `finished` are what both readings fix.


def _before_start(event: JSONObject) -> bool:
    """Events that start nothing and end nothing: everything but a usable message_start
    and an error (which would end the fold: AM-LIFE-ERROR's business)."""
    kind = event.get("type")
    return kind != "error" and not (
        kind == "message_start" and isinstance(event.get("message"), dict)
    )


def reading_before_a_message_start(check: Check, data: st.DataObject) -> None:
    """AM-LIFE-EMPTY: reading before a usable message_start fails; one is enough."""
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
