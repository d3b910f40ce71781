"""Lifecycle: the incremental interface, as a Hypothesis state machine over add / read /
mark_done (feature `lifecycle`).

One machine drives the target's accumulator and a `refold.reference.chat.Accumulator` given the
same lifecycle, and checks one concern after every step; each concern is its own test so a
failure is charged to the rules it breaks, not to every lifecycle rule at once:

    LIFE-SNAPSHOT               responses handed out never change; chunks are never mutated
    LIFE-FINISHED, LIFE-DONE    `finished`, against a model built from the chunk stream alone
    TOOL-EMPTY-ARGS             `"{}"` for an argument-less call only once finished
    LIFE-AFTER, LIFE-ERROR      every response equals the reference's at the same point, so
                                error chunks and chunks after the finish are folded

Replaying a printed reproduction: Hypothesis prints `state = SnapshotMachine()` and the
steps. The machines read their target from `LifecycleMachine.bound_check`, so paste the
steps into a test that takes `check` and runs them inside `with bound(check):`.

Chunks are drawn with `refold.strategies.chat.lifecycle_chunks` over the features the target
claims: a target that does not claim `robustness` is never sent a null entry or a blank
value, so a correct lifecycle is never failed for a robustness fault.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar

import pytest
from hypothesis import Phase, given, settings, stateful
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject, json_equal, pointer
from refold.reference.chat import Accumulator, differences
from refold.run.checks import Check, CheckedAccumulator, ConformanceFailure
from refold.run.marks import rule
from refold.strategies.chat import lifecycle_chunks

_STEPS = 15
"""Steps per run: enough for a finish, a `[DONE]` and chunks after both."""

_ENVELOPE: JSONObject = {
    "id": "chatcmpl-x",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "m",
}


class _FinishedModel:
    """LIFE-FINISHED from the chunks alone: choices seen, the last non-blank finish reason
    of each, and whether `[DONE]` was recorded."""

    def __init__(self) -> None:
        self.finish_reasons: dict[int, str | None] = {}
        self.done = False

    def add(self, chunk: JSONObject) -> None:
        for entry in chunk["choices"]:
            if isinstance(entry, dict):
                reason = entry.get("finish_reason")
                latest = reason if isinstance(reason, str) and reason.strip() else None
                previous = self.finish_reasons.get(entry["index"])
                self.finish_reasons[entry["index"]] = latest or previous

    @property
    def by_finish_reasons(self) -> bool:
        """Finished by its finish reasons alone (LIFE-FINISHED without LIFE-DONE)."""
        reasons = self.finish_reasons.values()
        return bool(reasons) and all(r not in (None, "error") for r in reasons)

    @property
    def finished(self) -> bool:
        return self.done or self.by_finish_reasons


class LifecycleMachine(stateful.RuleBasedStateMachine):
    """Drives the target and the reference through the same lifecycle; subclasses check
    one concern in `verify`, after every step."""

    bound_check: ClassVar[Check | None] = None

    def __init__(self) -> None:
        super().__init__()
        if LifecycleMachine.bound_check is None:
            raise RuntimeError("no target bound: run the machine inside `with bound(check):`")
        self.check = LifecycleMachine.bound_check
        self.target: CheckedAccumulator = self.check.accumulator()
        self.reference = Accumulator()
        self.stream = _FinishedModel()
        self.given: list[tuple[JSONObject, JSONObject]] = []  # (chunk passed in, its copy)
        self.handed_out: list[tuple[JSONObject, JSONObject]] = []  # (response, its copy)

    @stateful.rule(data=st.data())
    def add(self, data: st.DataObject) -> None:
        # only the shapes the target claims (`refold.strategies.chat.allows`)
        chunk = data.draw(lifecycle_chunks(features=self.check.target.features), label="chunk")
        self.given.append((chunk, copy.deepcopy(chunk)))
        self.target.add(chunk)
        self.reference.add(copy.deepcopy(chunk))
        self.stream.add(chunk)

    @stateful.precondition(lambda self: bool(self.given))
    @stateful.rule()
    def read(self) -> None:
        response = self.target.response()
        self.handed_out.append((response, copy.deepcopy(response)))

    @stateful.rule()
    def mark_done(self) -> None:
        self.target.mark_done()
        self.reference.mark_done()
        self.stream.done = True

    @stateful.invariant()
    def concern_holds(self) -> None:
        self.verify()

    def verify(self) -> None:
        """Check this machine's concern; raise the check's failure when it does not hold."""
        raise NotImplementedError


class SnapshotMachine(LifecycleMachine):
    """LIFE-SNAPSHOT: a response handed out never changes, and neither do the chunks.

    Besides the drawn reads, it reads after every step, as a caller rendering each partial
    response does: a snapshot updated in place then shows as soon as any chunk changes the
    response, instead of only when a drawn read happens to fall before a changing chunk."""

    def verify(self) -> None:
        self._verify_unchanged()
        if self.given:
            self.read()

    def _verify_unchanged(self) -> None:
        for number, (chunk, original) in enumerate(self.given):
            if not json_equal(chunk, original):
                raise self.check.fail(
                    f"the target mutated chunk {number} after add()",
                    chunks=[original],
                    differences=differences(original, chunk),
                    expected=original,
                    received=chunk,
                )
        for number, (response, original) in enumerate(self.handed_out):
            found = self.check.projected_differences(original, response)
            if found:
                raise self.check.fail(
                    f"response {number} changed after it was handed out "
                    f"({len(self.given)} chunks folded since the start)",
                    chunks=self.target.chunks,
                    differences=found,
                    expected=original,
                    received=response,
                )


class FinishedMachine(LifecycleMachine):
    """LIFE-FINISHED, LIFE-DONE: `finished` follows the chunk stream and `[DONE]`."""

    def verify(self) -> None:
        expected = self.stream.finished
        if self.target.finished != expected:
            reasons = {i: self.stream.finish_reasons[i] for i in sorted(self.stream.finish_reasons)}
            # `finished` has no JSON pointer: charge the clause that decides it, LIFE-DONE
            # when only `[DONE]` finishes the fold, LIFE-FINISHED otherwise
            by_reasons = self.stream.by_finish_reasons
            rule_id = "LIFE-DONE" if self.stream.done and not by_reasons else "LIFE-FINISHED"
            raise ConformanceFailure(
                (rule_id,),
                f"finished is {not expected}, expected {expected}: finish reasons "
                f"by choice {reasons}, [DONE] {'recorded' if self.stream.done else 'not recorded'}",
                chunks=self.target.chunks,
                expected=expected,
                received=not expected,
            )


class EmptyArgumentsMachine(LifecycleMachine):
    """TOOL-EMPTY-ARGS: a call that received no argument text reads `""` until the fold is
    finished and `"{}"` from then on. Only calls the reference reads as `""` or `"{}"` are
    compared, so a different fault elsewhere is left to the tests of its own rules."""

    def verify(self) -> None:
        if not self.given:
            return
        expected, received = self.reference.response(), self.target.response()
        for choice_number, choice in enumerate(expected["choices"]):
            calls = choice["message"].get("tool_calls") or []
            for call_number, call in enumerate(calls):
                path = (
                    "choices",
                    choice_number,
                    "message",
                    "tool_calls",
                    call_number,
                    "function",
                    "arguments",
                )
                self._compare(path, call["function"]["arguments"], _lookup(received, path))

    def _compare(self, path: tuple[str | int, ...], expected: str, received: JSON) -> None:
        empty = ("", "{}")
        if expected in empty and received in empty and expected != received:
            state = "finished" if self.stream.finished else "not finished"
            raise self.check.fail(
                f"an argument-less call reads {received!r} at {pointer(list(path))} while "
                f"the fold is {state}; expected {expected!r}",
                chunks=self.target.chunks,
                expected=expected,
                received=received,
            )


class ReferenceMachine(LifecycleMachine):
    """LIFE-AFTER, LIFE-ERROR: at every step the response equals the reference's, so an
    error chunk and every chunk after the finish or after `[DONE]` are folded."""

    def verify(self) -> None:
        if not self.given:
            return
        expected, received = self.reference.response(), self.target.response()
        found = self.check.differences(expected, received)
        if found:
            raise self.check.fail(
                f"after {len(self.given)} chunks (finished: {self.stream.finished}) the "
                f"response differs from the reference's at {len(found)} place(s)",
                chunks=self.target.chunks,
                differences=found,
                expected=expected,
                received=received,
            )


def _lookup(value: JSON, path: tuple[str | int, ...]) -> JSON:
    for step in path:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return None
    return value


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
    # vary: measured at 100+ s for one failure, and a step list already explains itself.
    phases = tuple(phase for phase in settings().phases if phase != Phase.explain)
    with bound(check):
        stateful.run_state_machine_as_test(
            machine, settings=settings(stateful_step_count=_STEPS, phases=phases)
        )


@rule("LIFE-SNAPSHOT")
def test_a_response_handed_out_never_changes_and_chunks_are_never_mutated(check: Check) -> None:
    _run(SnapshotMachine, check)


@rule("LIFE-FINISHED", "LIFE-DONE")
def test_finished_follows_the_finish_reasons_and_done(check: Check) -> None:
    _run(FinishedMachine, check)


@rule("TOOL-EMPTY-ARGS")
def test_argument_less_calls_read_braces_only_once_finished(check: Check) -> None:
    if "lifecycle" not in check.target.features:
        pytest.skip(
            f"target {check.target.name} does not claim feature lifecycle, which "
            f"this test needs to tell a finished fold from an unfinished one"
        )
    _run(EmptyArgumentsMachine, check)


@rule("LIFE-AFTER", "LIFE-ERROR")
def test_every_response_equals_the_reference_at_the_same_point(check: Check) -> None:
    _run(ReferenceMachine, check)


@rule("LIFE-EMPTY")
@given(steps=st.lists(st.sampled_from(["read", "finished", "mark_done"]), max_size=4))
def test_reading_before_any_chunk_raises(check: Check, steps: list[str]) -> None:
    accumulator = check.accumulator()
    for step in steps:
        if step == "read":
            _expect_empty_error(check, accumulator)
        elif step == "finished":
            _ = accumulator.finished
        else:
            accumulator.mark_done()
    _expect_empty_error(check, accumulator)
    accumulator.add({**_ENVELOPE, "choices": []})
    accumulator.response()


def _expect_empty_error(check: Check, accumulator: CheckedAccumulator) -> None:
    if accumulator.response_error() is None:
        raise check.fail("response() returned a response before any chunk was added", chunks=[])
