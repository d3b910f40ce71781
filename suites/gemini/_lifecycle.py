"""The Gemini dialect's lifecycle (`refold.suites._lifecycle`, its kit's `LIFECYCLE`): its
model of the lifecycle from the chunks alone, how a wrong `finished` and a read unlike the
reference's are charged, its own concern (GM-LIFE-ERROR), reading before any chunk, and
the damage that needs `lifecycle` to be folded.

    GM-LIFE-SNAPSHOT                    responses handed out never change; chunks are never
                                        mutated
    GM-LIFE-FINISHED, -TRUNCATED        `finished`, against a model built from the chunks
    GM-LIFE-ERROR                       `error` is the error chunk's object, the fold is not
                                        finished, and later chunks change nothing
    GM-LIFE-AFTER-FINISH, -TRUNCATED    every response read equals the reference's at the
                                        same point (chunks after a finish still folded)

Chunks are drawn one at a time with `refold.strategies.gemini.lifecycle_chunks` over the
features the target claims; a value that is not an object (robustness) is the robustness
suite's, not drawn here.
"""

from __future__ import annotations

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.reference.gemini import Accumulator
from refold.run.checks import Check
from refold.strategies.gemini import chunk_streams, lifecycle_chunks

from .._lifecycle import Lifecycle, LifecycleMachine, Mismatch
from .._lifecycle_error import TerminalErrorMachine
from ._fragments import no_orphan_fragment

__all__ = ["LIFECYCLE_MACHINE", "ErrorMachine", "cut_streams", "reading_before_any_chunk"]

_NOT_DRAWN = frozenset({"sse", "robustness"})
"""Not drawn for the machine: a value that is not an object is the robustness suite's."""


def _blank(value: JSON) -> bool:
    return not isinstance(value, str) or not value.strip()


def _index(entry: JSONObject) -> int:
    """GM-CAND-INDEX: a non-negative integral number, else 0."""
    value = entry.get("index")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value) if value >= 0 and value == int(value) else 0


class _StreamModel:
    """The lifecycle from the chunks alone (GM-LIFE-FINISHED): which candidates arrived
    and which have a finish reason, whether the prompt was blocked, the error chunk."""

    def __init__(self) -> None:
        self.chunks = 0
        self.candidates: dict[int, bool] = {}  # index -> finished
        self.blocked = False
        self.error: JSONObject | None = None

    @property
    def readable(self) -> bool:
        return self.chunks > 0

    @property
    def finished(self) -> bool:
        done = bool(self.candidates) and all(self.candidates.values())
        return self.error is None and (done or self.blocked)

    @property
    def over(self) -> bool:
        return self.error is not None  # GM-LIFE-ERROR is terminal; a finish is not

    def add(self, chunk: JSONObject) -> None:
        self.chunks += 1
        if self.over:
            return
        if chunk.get("error") is not None:
            found = chunk["error"]
            self.error = found if isinstance(found, dict) else {}
            return
        feedback = chunk.get("promptFeedback")
        if isinstance(feedback, dict) and not _blank(feedback.get("blockReason")):
            self.blocked = True
        entries = chunk.get("candidates")
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict):
                index = _index(entry)
                finished = not _blank(entry.get("finishReason"))
                self.candidates[index] = self.candidates.get(index, False) or finished

    def wrong_finished(self, machine: LifecycleMachine, received: bool) -> AssertionError:
        if self.error is not None:
            rule_id, state = "GM-LIFE-ERROR", "an error chunk came"
        elif self.finished:
            rule_id = "GM-LIFE-FINISHED"
            state = "the prompt was blocked" if self.blocked else "every candidate has a finish"
        elif self.candidates:
            rule_id, state = "GM-LIFE-TRUNCATED", "a candidate has no finishReason yet"
        else:
            rule_id, state = "GM-LIFE-FINISHED", "no candidate and no blocked prompt yet"
        return machine.finished_failure(received, rule_id, state)

    def unlike_reference(self, machine: LifecycleMachine, read: Mismatch) -> AssertionError:
        # Every earlier step agreed: the latest chunk made the difference. With an error
        # chunk folded that is GM-LIFE-ERROR's (the error is terminal, never in the
        # response); otherwise the places' rules, as in any fold.
        if self.error is None:
            return machine.read_failure(read)
        read = read._replace(summary=f"{read.summary} (after an error chunk)")
        return machine.read_failure(read, rules=("GM-LIFE-ERROR",))


def _chunks(claimed: frozenset[str]) -> st.SearchStrategy[JSONObject]:
    # without `robustness`, every chunk drawn is an object
    return lifecycle_chunks(features=claimed - _NOT_DRAWN)


LIFECYCLE_MACHINE = Lifecycle(
    items=_chunks,
    reference=Accumulator,
    model=_StreamModel,
)
"""The Gemini lifecycle: chunks one at a time, a machine begun empty."""


class ErrorMachine(TerminalErrorMachine):
    """GM-LIFE-ERROR: `error` reads the error chunk's `error` object (`{}` when it is not
    an object), the fold is not finished, and the response is the one read just before
    the error chunk, whatever comes after it."""

    concern_rule = "GM-LIFE-ERROR"
    error_item = "error chunk"
    changed = "the response changed with the error chunk or after it"


def reading_before_any_chunk(check: Check, data: st.DataObject) -> None:
    """GM-LIFE-EMPTY: reading before any chunk fails with an error; one chunk, whatever
    it holds, is enough to read a response."""
    accumulator = check.accumulator()
    found = accumulator.response_error()
    if found is None or found.kind != "raised":
        how = "returned a response" if found is None else f"failed ({found.kind})"
        raise check.fail(
            f"response() {how} before any chunk was added, expected a documented error",
            rules=("GM-LIFE-EMPTY",),
            events=[],
        )
    chunk = data.draw(_chunks(check.target.features), label="chunk")
    accumulator.add(chunk)
    accumulator.response()


def cut_streams(claimed: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    """Streams cut anywhere, with an error chunk, or going on after the finish chunk (the
    damage only a target claiming `lifecycle` is sent), with the claimed features' other
    damage."""
    drawn = chunk_streams(features=(claimed - _NOT_DRAWN) | {"lifecycle"})
    return drawn.filter(no_orphan_fragment)
