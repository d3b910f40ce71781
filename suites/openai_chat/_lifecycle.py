"""The chat dialect's lifecycle (`refold.suites._lifecycle`, its kit's `LIFECYCLE`): its
model of `finished` from the chunks alone, how a wrong `finished` and a read unlike the
reference's are charged, its own concern (TOOL-EMPTY-ARGS), and reading before any chunk.

    LIFE-SNAPSHOT               responses handed out never change; chunks are never mutated
    LIFE-FINISHED, LIFE-DONE    `finished`, against a model built from the chunk stream alone
    TOOL-EMPTY-ARGS             `"{}"` for an argument-less call only once finished
    LIFE-AFTER, LIFE-ERROR      every response equals the reference's at the same point, so
                                error chunks and chunks after the finish are folded

Chunks are drawn with `refold.strategies.chat.lifecycle_chunks` over the features the target
claims: a target that does not claim `robustness` is never sent a null entry or a blank
value, so a correct lifecycle is never failed for a robustness fault.
"""

from __future__ import annotations

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject, pointer
from refold.reference.chat import Accumulator
from refold.run.checks import Check, CheckedAccumulator, ConformanceFailure
from refold.strategies.chat import lifecycle_chunks

from .._lifecycle import Lifecycle, LifecycleMachine, Mismatch

__all__ = ["LIFECYCLE_MACHINE", "EmptyArgumentsMachine", "reading_before_any_chunk"]

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
        self.readable = False

    def add(self, chunk: JSONObject) -> None:
        self.readable = True
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

    @property
    def over(self) -> bool:
        return self.finished

    def wrong_finished(self, machine: LifecycleMachine, received: bool) -> AssertionError:
        reasons = {i: self.finish_reasons[i] for i in sorted(self.finish_reasons)}
        # `finished` has no JSON pointer: charge the clause that decides it, LIFE-DONE
        # when only `[DONE]` finishes the fold, LIFE-FINISHED otherwise
        rule_id = "LIFE-DONE" if self.done and not self.by_finish_reasons else "LIFE-FINISHED"
        return ConformanceFailure(
            (rule_id,),
            f"finished is {received}, expected {self.finished}: finish reasons "
            f"by choice {reasons}, [DONE] {'recorded' if self.done else 'not recorded'}",
            chunks=machine.target.chunks,
            expected=self.finished,
            received=received,
        )

    def unlike_reference(self, machine: LifecycleMachine, read: Mismatch) -> AssertionError:
        return machine.check.fail(
            read.summary,
            chunks=machine.target.chunks,
            differences=read.found,
            expected=read.expected,
            received=read.received,
        )


LIFECYCLE_MACHINE = Lifecycle(
    items=lambda claimed: lifecycle_chunks(features=claimed),
    reference=Accumulator,
    model=_FinishedModel,
    mark_done=True,
    projected=True,
)
"""The chat lifecycle: chunks, `[DONE]` (mark_done), snapshots compared within the
target's projection."""


class EmptyArgumentsMachine(LifecycleMachine):
    """TOOL-EMPTY-ARGS: a call that received no argument text reads `""` until the fold is
    finished and `"{}"` from then on. Only calls the reference reads as `""` or `"{}"` are
    compared, so a different fault elsewhere is left to the tests of its own rules."""

    needs_lifecycle = "tell a finished fold from an unfinished one"

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


def _lookup(value: JSON, path: tuple[str | int, ...]) -> JSON:
    for step in path:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def reading_before_any_chunk(check: Check, data: st.DataObject) -> None:
    """LIFE-EMPTY: reading before any chunk fails, whatever was asked or marked before;
    one chunk is enough."""
    steps = data.draw(
        st.lists(st.sampled_from(["read", "finished", "mark_done"]), max_size=4), label="steps"
    )
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
