"""The lifecycle state machine the generic lifecycle suite (`test_lifecycle.py`) runs, and
the hooks a dialect's kit gives it (`Lifecycle`).

One machine drives the target's accumulator and the reference's given the same items
(add / read, and mark_done where the dialect has it), and checks one concern after every
step; each concern is its own test so a failure is charged to the rules it breaks, not to
every lifecycle rule at once. What an item is, how the lifecycle reads from the items alone
(the dialect's `StreamModel`) and how a wrong `finished` or a read unlike the reference's is
charged are the dialect's; the snapshot, `finished` and reference concerns are written
here once, a dialect's own concerns (`Concern`s in its kit's `LIFECYCLE`) subclass
`LifecycleMachine`.

Replaying a printed reproduction: Hypothesis prints `state = SnapshotMachine()` and the
steps. The machines read their target from `LifecycleMachine.bound_check`, so paste the
steps into a test that takes `check` and runs them inside `with bound(check):`.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar, NamedTuple, Protocol

from hypothesis import Phase, settings, stateful
from hypothesis import strategies as st

from refold.reference import JSON, Difference, JSONObject, json_equal
from refold.run.checks import Check, CheckedAccumulator

__all__ = [
    "FinishedMachine",
    "Lifecycle",
    "LifecycleMachine",
    "Mismatch",
    "ReferenceMachine",
    "SnapshotMachine",
    "StreamModel",
    "bound",
    "run_machine",
]

_STEPS = 15
"""Steps per run: enough for a few parts, a finish or an error, and items after both."""


class StreamModel(Protocol):
    """A dialect's lifecycle read from the items alone, and how a target departing from it
    is charged (the model knows which clause decides what it reads)."""

    @property
    def readable(self) -> bool:
        """Whether the fold can be read (an item or a start arrived)."""

    @property
    def finished(self) -> bool:
        """What `finished` must read."""

    @property
    def over(self) -> bool:
        """Whether the fold has ended (later items change what the spec says they change)."""

    def add(self, item: JSONObject) -> None:
        """Follow one more item."""

    def wrong_finished(self, machine: LifecycleMachine, received: bool) -> AssertionError:
        """The failure of a `finished` that reads `received` against the model's."""

    def unlike_reference(self, machine: LifecycleMachine, read: Mismatch) -> AssertionError:
        """The failure of a read unlike the reference's, charged as the dialect charges
        the last item's difference."""


class Mismatch(NamedTuple):
    """A read unlike the reference's."""

    summary: str
    expected: JSON
    """The reference's result."""
    received: JSON
    """The target's result."""
    found: list[Difference]
    """Their differences."""


class Lifecycle(NamedTuple):
    """A dialect's parts of the lifecycle machine (its kit's `LIFECYCLE_MACHINE`)."""

    items: Callable[[frozenset[str]], st.SearchStrategy[JSONObject]]
    """The items drawn one at a time, of the claimed features."""
    reference: Callable[[], Any]
    """A new reference accumulator."""
    model: Callable[[], StreamModel]
    """A new model of the lifecycle from the items alone."""
    start: Callable[[frozenset[str]], JSONObject] | None = None
    """The item a machine may begin with (drawn); None: a machine begins empty."""
    mark_done: bool = False
    """Whether the dialect's accumulators have mark_done (a step of the machine)."""
    ablate: bool = False
    """Whether the target's accumulator is ablating (`Check.accumulator(ablate=True)`)."""
    projected: bool = False
    """Whether a snapshot is compared within the target's projection (else exactly)."""


def lifecycle_of(check: Check) -> Lifecycle:
    """The lifecycle hooks of `check`'s dialect's kit."""
    kit = importlib.import_module(f"{__package__}.{check.dialect.kit}")
    life: Lifecycle = kit.LIFECYCLE_MACHINE
    return life


class LifecycleMachine(stateful.RuleBasedStateMachine):
    """Drives the target and the reference through the same items; subclasses check one
    concern in `verify`, after every step."""

    bound_check: ClassVar[Check | None] = None

    def __init__(self) -> None:
        super().__init__()
        if LifecycleMachine.bound_check is None:
            raise RuntimeError("no target bound: run the machine inside `with bound(check):`")
        self.check = LifecycleMachine.bound_check
        self.life = lifecycle_of(self.check)
        self.target: CheckedAccumulator = self.check.accumulator(ablate=self.life.ablate)
        self.reference = self.life.reference()
        self.stream: Any = self.life.model()  # the dialect's model, its own fields too
        self.over_before = False  # whether the fold was over before the last item
        self.given: list[tuple[JSONObject, JSONObject]] = []  # (item passed in, its copy)
        self.handed_out: list[tuple[JSONObject, JSONObject]] = []  # (result, its copy)

    @stateful.initialize(data=st.data())
    def begin(self, data: st.DataObject) -> None:
        start = self.life.start
        if start is not None and data.draw(st.booleans(), label="started"):
            self._add(start(self.check.target.features))

    @stateful.rule(data=st.data())
    def add(self, data: st.DataObject) -> None:
        # only the shapes the target claims (the dialect's `allows`)
        item = data.draw(self.life.items(self.check.target.features), label=self.check.dialect.item)
        self._add(item)

    def _add(self, item: JSONObject) -> None:
        self.before_add(item)
        self.over_before = self.stream.over
        self.given.append((item, copy.deepcopy(item)))
        self.target.add(item)
        self.reference.add(copy.deepcopy(item))
        self.stream.add(item)
        self.after_add(item)

    @stateful.precondition(lambda self: self.stream.readable)
    @stateful.rule()
    def read(self) -> None:
        response = self.read_target()
        self.handed_out.append((response, copy.deepcopy(response)))

    @stateful.precondition(lambda self: self.life.mark_done)
    @stateful.rule()
    def mark_done(self) -> None:
        self.target.mark_done()
        self.reference.mark_done()
        self.stream.done = True

    def read_target(self) -> JSONObject:
        """The target's result (with an ablating accumulator, a crash reading it is
        charged by the harness)."""
        response: JSONObject = self.target.response()
        return response

    @stateful.invariant()
    def concern_holds(self) -> None:
        self.verify()

    def before_add(self, item: JSONObject) -> None:
        """Called before each item is added (a hook for subclasses)."""

    def after_add(self, item: JSONObject) -> None:
        """Called after each item is added (a hook for subclasses)."""

    def verify(self) -> None:
        """Check this machine's concern; raise the check's failure when it does not hold."""
        raise NotImplementedError

    concern_rule: ClassVar[str] = ""
    """The rule a concern's own failures are charged to (`failure`)."""

    def failure(self, summary: str, *, expected: JSON, received: JSON) -> AssertionError:
        """The failure of this concern's rule, with the items given so far."""
        return self.charged(summary, (self.concern_rule,), expected=expected, received=received)

    def charged(
        self, summary: str, rules: tuple[str, ...], *, expected: JSON, received: JSON
    ) -> AssertionError:
        """The failure of `rules`, with the items given so far."""
        return self.check.fail(
            summary, rules=rules, events=self.items(), expected=expected, received=received
        )

    def finished_failure(self, received: bool, rule: str, state: str) -> AssertionError:
        """The failure of a `finished` that reads `received` against the model's, charged to
        `rule` (`finished` has no JSON pointer: the clause that decides it); `state` says
        what in the items decides it."""
        expected = self.stream.finished
        return self.charged(
            f"finished is {received}, expected {expected}: {state}",
            (rule,),
            expected=expected,
            received=received,
        )

    def read_failure(
        self, read: Mismatch, *, rules: tuple[str, ...] | None = None
    ) -> AssertionError:
        """The failure of a read unlike the reference's: charged to `rules` when given,
        else as the dialect charges a read mid-stream."""
        return self.check.fail(
            read.summary,
            rules=rules,
            events=self.items(),
            found_by="read",
            differences=read.found,
            expected=read.expected,
            received=read.received,
        )

    def items(self) -> list[JSON]:
        """The items as they were given (before the target could change them)."""
        return [original for _, original in self.given]

    def described(self, expected: JSON, received: JSON) -> str:
        """The first differences of two values, for a summary."""
        found = self.check.dialect.differences(expected, received)
        return "; ".join(str(d) for d in found[:3]) + (
            f" (+{len(found) - 3})" if len(found) > 3 else ""
        )


class SnapshotMachine(LifecycleMachine):
    """A result handed out never changes, and neither do the items.

    Besides the drawn reads, it reads after every step once the fold is readable, as a
    caller rendering each partial result does: a snapshot updated in place then shows as
    soon as any item changes the result, instead of only when a drawn read happens to fall
    before a changing item."""

    def verify(self) -> None:
        self._verify_unchanged()
        if self.stream.readable:
            self.read()

    def _verify_unchanged(self) -> None:
        item, result = self.check.dialect.item, self.check.dialect.result
        for number, (given, original) in enumerate(self.given):
            if not json_equal(given, original):
                raise self.check.fail(
                    f"the target mutated {item} {number} after add(): "
                    f"{self.described(original, given)}",
                    events=self.items(),
                    expected=original,
                    received=given,
                )
        for number, (response, original) in enumerate(self.handed_out):
            found = self.check.projected_differences(original, response)
            if found if self.life.projected else not json_equal(response, original):
                raise self.check.fail(
                    f"{result} {number} changed after it was handed out ({len(self.given)} "
                    f"{self.check.dialect.items} folded since the start): "
                    f"{self.described(original, response)}",
                    events=self.items(),
                    differences=found,
                    expected=original,
                    received=response,
                )


class FinishedMachine(LifecycleMachine):
    """`finished` reads what the items alone say (the dialect's model)."""

    def verify(self) -> None:
        if self.target.finished != self.stream.finished:
            raise self.stream.wrong_finished(self, self.target.finished)


class ReferenceMachine(LifecycleMachine):
    """At every step the result equals the reference's, so a cut, failed or ended stream
    reads as the reference's partial result; a difference is charged as the dialect
    charges the last item's."""

    def verify(self) -> None:
        if not self.stream.readable:
            return
        expected, received = self.reference.response(), self.read_target()
        found = self.check.differences(expected, received)
        if found:
            summary = (
                f"after {len(self.given)} {self.check.dialect.items} (finished: "
                f"{self.stream.finished}) the {self.check.dialect.result} differs from the "
                f"reference's at {len(found)} place(s)"
            )
            raise self.stream.unlike_reference(self, Mismatch(summary, expected, received, found))


@contextmanager
def bound(check: Check) -> Iterator[None]:
    """Bind the lifecycle machines to `check`'s target for the duration of the block."""
    LifecycleMachine.bound_check = check
    try:
        yield
    finally:
        LifecycleMachine.bound_check = None


def run_machine(machine: type[LifecycleMachine], check: Check) -> None:
    """Run `machine` against `check`'s target."""
    # The explain phase replays a shrunk machine once per step to say which steps could
    # vary: measured at 100+ s for one failure, and a step list already explains itself.
    phases = tuple(phase for phase in settings().phases if phase != Phase.explain)
    with bound(check):
        stateful.run_state_machine_as_test(
            machine, settings=settings(stateful_step_count=_STEPS, phases=phases)
        )
