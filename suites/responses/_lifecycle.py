"""The Responses dialect's lifecycle (`refold.suites._lifecycle`, its kit's `LIFECYCLE`):
its model of the lifecycle from the events alone, how a wrong `finished` and a read unlike
the reference's are charged, its own concerns (RS-ERROR-EVENT, LIFE-RS-AFTER), reading
before any event, and the damage that needs `lifecycle` to be folded.

    LIFE-RS-SNAPSHOT            Responses handed out never change; events are never mutated
    LIFE-RS-FINISHED            `finished`, against a model built from the events alone
    RS-ERROR-EVENT              an `error` event changes neither the Response nor `finished`
    LIFE-RS-AFTER               after a terminal event only terminal events, and item events
                                under a terminal without output, change the Response
    LIFE-RS-SNAPSHOT, -AFTER    every Response read equals the reference's at the same point

Events are drawn one at a time with `refold.strategies.responses.lifecycle_events` over the
features the target claims: a target that does not claim `robustness` is never sent a
keepalive, an unknown event or a wrongly typed field.
"""

from __future__ import annotations

import copy

from hypothesis import strategies as st

from refold.reference import JSONObject
from refold.reference.responses import Accumulator
from refold.run.checks import Check
from refold.strategies.responses import event_streams, lifecycle_events

from .._lifecycle import Lifecycle, LifecycleMachine, Mismatch

__all__ = [
    "LIFECYCLE_MACHINE",
    "AfterMachine",
    "ErrorMachine",
    "cut_streams",
    "reading_before_any_event",
]

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

    @property
    def readable(self) -> bool:
        return self.events > 0

    @property
    def over(self) -> bool:
        return self.finished

    def add(self, event: JSONObject) -> None:
        self.events += 1
        if _terminal(event):
            self.finished = True
            output = event["response"].get("output")
            self.whole_output = isinstance(output, list) and bool(output)

    def wrong_finished(self, machine: LifecycleMachine, received: bool) -> AssertionError:
        state = "a terminal event arrived" if self.finished else "no terminal event yet"
        return machine.finished_failure(received, "LIFE-RS-FINISHED", state)

    def unlike_reference(self, machine: LifecycleMachine, read: Mismatch) -> AssertionError:
        # Every earlier step agreed: the latest event made the difference. After the
        # terminal an event other than a terminal is LIFE-RS-AFTER's (the harness clears
        # it when the same event before the terminal makes the same difference); a
        # terminal replaces the result (RS-TERMINAL-REPEAT), so the difference is its
        # places' rules', as before the terminal (the snapshot is folded by the same
        # rules as the result).
        after = machine.over_before and not _terminal(machine.given[-1][1])
        return machine.read_failure(read, rules=("LIFE-RS-AFTER",) if after else None)


LIFECYCLE_MACHINE = Lifecycle(
    items=lambda claimed: lifecycle_events(features=claimed),
    reference=Accumulator,
    model=_StreamModel,
    start=lambda claimed: copy.deepcopy(_CREATED),
    ablate=True,
)
"""The Responses lifecycle: events, a machine maybe begun with response.created, the
target's accumulator ablating (a crash reading it after an incomplete or failed terminal is
charged by the harness)."""


class ErrorMachine(LifecycleMachine):
    """RS-ERROR-EVENT: an `error` event is not part of the Response and finishes nothing:
    the Response and `finished` read after it are those read just before it."""

    concern_rule = "RS-ERROR-EVENT"

    def __init__(self) -> None:
        super().__init__()
        self.before: tuple[JSONObject | None, bool] | None = None

    def before_add(self, event: JSONObject) -> None:
        self.before = None
        if event.get("type") == "error":
            read = self.read_target() if self.stream.readable else None
            self.before = (read, self.target.finished)

    def verify(self) -> None:
        if self.before is None:
            return
        read, finished = self.before
        if self.target.finished != finished:
            raise self.failure(
                f"finished went from {finished} to {not finished} with an error event",
                expected=finished,
                received=not finished,
            )
        response = self.read_target()
        if read is not None and self.check.differences(read, response):
            raise self.failure(
                f"the Response changed with an error event: {self.described(read, response)}",
                expected=read,
                received=response,
            )
        self.before = None


class AfterMachine(LifecycleMachine):
    """LIFE-RS-AFTER: once finished, the fold stays finished, and an event that is neither
    a terminal event nor (under a terminal that sent no output) an item event changes
    nothing: the result is the terminal's (RS-TERMINAL-BASE), filled only from earlier
    lifecycle responses (RS-ENV-FILL)."""

    concern_rule = "LIFE-RS-AFTER"

    def __init__(self) -> None:
        super().__init__()
        self.last: JSONObject | None = None

    def before_add(self, event: JSONObject) -> None:
        changes = _terminal(event) or ("output_index" in event and not self.stream.whole_output)
        self.last = self.read_target() if self.stream.finished and not changes else None

    def verify(self) -> None:
        if self.over_before and not self.target.finished:
            raise self.failure(
                "finished went back to False after a terminal event", expected=True, received=False
            )
        if self.last is None:
            return
        response = self.read_target()
        if self.check.differences(self.last, response):
            raise self.failure(
                f"an event after the terminal changed the Response: "
                f"{self.described(self.last, response)}",
                expected=self.last,
                received=response,
            )
        self.last = None


def cut_streams(claimed: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    """Damage that needs `lifecycle`: a truncation reads as the snapshot, events after the
    terminal are folded (the fold-only damage is the differential suite's)."""
    return event_streams(features=claimed - {"robustness", "sse", "events"})


def reading_before_any_event(check: Check, data: st.DataObject) -> None:
    """LIFE-RS-EMPTY: reading before any event fails; one event is enough."""
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
