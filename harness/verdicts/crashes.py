"""Where a target crashed and which rule the crash is evidence against.

A target that raises gives no JSON pointer to charge (`refold.attribution`), and charging
the crash to every rule of the test that met it makes one defect look like many. So a
crash is located and explained:

* location: the chunk at which it raised. An accumulator's `add()` says so itself; for a
  fold of a whole list it is the shortest prefix of the stream that raises the same way,
  found by bisection (at most about log2(chunks) more calls);
* ablation: every departure from the plain shape present in the stream up to that chunk
  is undone, one at a time, by a transformation the reference folds identically
  (`refold.dialects.openai_chat.ablation`), and the target is run again on each (one call per
  departure
  present). The rules of the departures whose undoing makes the crash go away are charged.
  When none does, the same is tried on the whole stream (an undo may move a later chunk
  before the crash, as putting the choices in order does). When none does, each departure
  may crash the target by itself: every departure is undone at once, and when the plain
  stream does not crash, each one is put back alone (one more call each); the rules of
  those that crash it alone are charged. When none does either, the dialect's probes
  are tried (`Ablation.difference_undos` beyond its undos: a change the reference folds
  differently only at pointers one rule owns, such as a Gemini stream's streamed calls
  sent whole): the rules deciding a probe whose change makes the crash go away are
  charged, since the crash needs what only they decide. When none does either, the crash
  is *unexplained* and stays charged to the test's own rules, less those about a shape
  the stream does not have (`Dialect.absent_departures`: no evidence, as for a
  difference).

The cost is bounded: about log2(chunks) calls to locate, then at most three per departure
present, one per probe (and one more), once per failed test, never while Hypothesis
shrinks (the plugin analyses the failure the test ended with).

The test's other rules are then *blocked*: their property could not be checked because
the target crashed on another rule's departure (`refold.records.results`).

Only what a crash raised is analysed (kind `raised` or `crashed`): a timeout would cost a
timeout per probe, and the other kinds are evidence about their own rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from refold.reference import JSON

from ..dialects import Ablation
from ..errors import TargetError
from ..targets import Target

__all__ = ["Crash", "FoundBy", "analyse", "raised_again", "signature"]

_ANALYSED_KINDS = frozenset({"raised", "crashed"})
_REPLAYED_OPERATIONS = frozenset({"fold", "add", "response"})
"""The calls a crash is replayed through, by name: `fold(chunks)` or `fold(events)` alike."""


FoundBy = Literal["undoing", "alone", "probe", "refusal"]
"""How a crash's charged rules were found (`Crash.found_by`)."""


def signature(error: TargetError) -> str:
    """How a crash is recognised again: its kind and, when it raised, the exception type."""
    first = str(error).strip().splitlines()[0] if str(error).strip() else ""
    raised = re.search(r"\braised ([A-Za-z_][\w.]*)", first)
    return f"{error.kind}: {raised.group(1)}" if raised else error.kind


@dataclass
class Crash:
    """A target's crash during a check, and what analysis found out about it."""

    operation: str
    """The call that raised: "fold(chunks)", "add(event)", "response()", ..."""
    signature: str
    at_chunk: int | None = None
    """1-based: the chunk whose folding raised (None: not located)."""
    analysed: bool = False
    departures: tuple[str, ...] = ()
    """The rules of the departures present (and undoable) up to the crash."""
    charged: tuple[str, ...] = field(default_factory=tuple)
    """The rules whose departure, undone alone, makes the crash go away (or, when none
    does, whose departure alone on the otherwise plain stream makes it)."""
    refused: tuple[int, ...] = ()
    """The positions (from 0) in the failure's stream of the items the target refused as
    the spec asks (an item that is not an object): left out when the crash is replayed,
    since the reference folds no such item and the target has shown it refuses them."""
    found_by: FoundBy = "undoing"
    """How `charged` was found: "undoing" one departure, keeping one "alone", or a
    "probe" taking one kind of content out of the stream; "refusal": nothing is charged,
    the crash needs an item the target refused (`refused`)."""

    @property
    def explained(self) -> bool:
        """Whether ablation charged the crash to at least one rule."""
        return bool(self.charged)

    def describe(self, chunks: int | None, *, item: str = "chunk") -> list[str]:
        """The lines a failure message shows about the crash."""
        lines: list[str] = []
        if self.at_chunk is not None:
            of = f" of {chunks}" if chunks is not None else ""
            lines.append(f"raised at {item} {self.at_chunk}{of} ({self.operation})")
        if not self.analysed:
            return lines
        if self.charged:
            one = len(self.charged) == 1
            if self.found_by == "undoing":
                lines.append(
                    f"charged to {', '.join(self.charged)}: undoing "
                    f"{'its departure' if one else 'any one of their departures'} "
                    f"from the plain shape alone (a change the reference folds "
                    f"identically) makes the crash go away"
                )
            elif self.found_by == "probe":
                lines.append(
                    f"charged to {', '.join(self.charged)}: taking out of the stream what "
                    f"{'it alone decides' if one else 'they alone decide'} (a change the "
                    f"reference folds identically elsewhere) makes the crash go away"
                )
            else:
                lines.append(
                    f"charged to {', '.join(self.charged)}: "
                    f"{'its departure' if one else 'each of their departures'} alone "
                    f"(every other one undone, as the reference folds identically) "
                    f"crashes the target, and the plain stream does not"
                )
        elif self.found_by == "refusal":
            lines.append(
                "the crash needs the item the target refused before it: replayed without "
                "that item the target does not raise; charged to the test's rules"
            )
        elif self.departures:
            # "from the plain shape": the rules' variations the ablation undoes, which a
            # documented stream has too, not the stream shape's departures (verdicts.md §1)
            lines.append(
                f"unexplained crash: undoing any one of its departures from the "
                f"plain shape ({', '.join(self.departures)}) leaves it, and none "
                f"alone makes it; charged to the test's rules"
            )
        else:
            lines.append(
                "unexplained crash: the stream has no departure from the plain shape "
                "to undo; charged to the test's rules"
            )
        return lines


def analyse(crash: Crash, chunks: list[JSON], target: Target) -> None:
    """Locate `crash` in `chunks` and charge it by ablation (mutates `crash`): the
    target's dialect's (`Dialect.ablation`); a dialect without one has its crashes
    located only, and charged to the test's rules."""
    if crash.analysed or not _replayed(crash):
        return
    if _name(crash.operation) == "fold" and crash.at_chunk is None and chunks:
        crash.at_chunk = _shortest_raising_prefix(crash, chunks, target)
    ablation = target.dialect.ablation
    if ablation is None:
        crash.analysed = True
        return
    taken, at = _taken(crash, chunks)
    if len(taken) < len(chunks) and not _raises(crash, taken, target):
        # it needs an item it refused: the refusal left the fold changed, which is the
        # test's own rule (ROB-NOT-OBJECT), nothing a departure of the rest explains
        crash.found_by = "refusal"
        crash.analysed = True
        return
    chunks = taken
    prefix = chunks[:at] if at is not None else chunks
    tried: dict[str, None] = {}
    for stream in (prefix, chunks) if len(prefix) < len(chunks) else (chunks,):
        undos = ablation.applicable_undos(stream)
        tried.update(dict.fromkeys(rule_id for rule_id, _ in undos))
        crash.charged = tuple(
            rule_id for rule_id, undone in undos if not _raises(crash, undone, target)
        )
        if crash.charged:
            break
    if not crash.charged:
        crash.charged = _sufficient_alone(crash, chunks, target, ablation)
        crash.found_by = "alone"
    if not crash.charged:
        crash.charged = _probed(crash, chunks, target, ablation, frozenset(tried))
        crash.found_by = "probe" if crash.charged else "undoing"
    crash.departures = tuple(tried)
    crash.analysed = True


def _taken(crash: Crash, chunks: list[JSON]) -> tuple[list[JSON], int | None]:
    """The stream a replay hands the target, without the items it refused, and the
    crash's chunk counted in it."""
    if not crash.refused:
        return chunks, crash.at_chunk
    taken = [chunk for number, chunk in enumerate(chunks) if number not in crash.refused]
    at = crash.at_chunk
    if at is not None:
        at -= sum(1 for number in crash.refused if number < at)
    return taken, at


def raised_again(crash: Crash, stream: list[JSON], target: Target) -> Crash | None:
    """The crash as `stream` shows it, analysed afresh, when the crash's operation on it
    raises the same way (None: it does not, or the crash is not one analysis replays: a
    timeout would cost a timeout). For an `add` the stream is cut at the item that
    raised, as the failure of an accumulator shows it."""
    if not _replayed(crash) or not _raises(crash, stream, target):
        return None
    again = Crash(crash.operation, crash.signature)
    if _name(crash.operation) == "add":
        again.at_chunk = _shortest_raising_prefix(again, stream, target)
    return again


def _sufficient_alone(
    crash: Crash, chunks: list[JSON], target: Target, ablation: Ablation
) -> tuple[str, ...]:
    """The departures that, alone on the otherwise plain stream, crash the target the same
    way, when the plain stream does not (several departures each crashing the target)."""
    alone = ablation.departures_alone(chunks)
    if not alone or alone[0][0] or _raises(crash, alone[0][1], target):
        return ()
    return tuple(rule_id for rule_id, stream in alone[1:] if _raises(crash, stream, target))


def _probed(
    crash: Crash, chunks: list[JSON], target: Target, ablation: Ablation, undone: frozenset[str]
) -> tuple[str, ...]:
    """The rules deciding the dialect's probes (those not among its undos, `undone`)
    whose change makes the crash go away."""
    if ablation.difference_undos is None:
        return ()
    charged: dict[str, None] = {}
    for rule_id, deciding, changed in ablation.difference_undos(chunks, target.features):
        if rule_id not in undone and not _raises(crash, changed, target):
            charged.update(dict.fromkeys(sorted(deciding)))
    return tuple(charged)


def _shortest_raising_prefix(crash: Crash, chunks: list[JSON], target: Target) -> int:
    """Bisect for a prefix length n that raises while n - 1 does not (the whole stream
    raises; the empty one is taken not to, since it is no stream)."""
    low, high = 0, len(chunks)
    while high - low > 1:
        middle = (low + high) // 2
        if _raises(crash, chunks[:middle], target):
            high = middle
        else:
            low = middle
    return high


def _raises(crash: Crash, chunks: list[JSON], target: Target) -> bool:
    """Whether the crash's operation on `chunks` raises the same way again."""
    try:
        if _name(crash.operation) == "fold":
            target.fold(chunks)
            return False
        accumulator = target.accumulator()
        for chunk in chunks:
            accumulator.add(chunk)
        if _name(crash.operation) == "response":
            accumulator.response()
    except TargetError as exc:
        return signature(exc) == crash.signature
    return False


def _replayed(crash: Crash) -> bool:
    """Whether analysis runs the crash's operation again: a raise or a crash of a call
    it can replay."""
    return (
        _name(crash.operation) in _REPLAYED_OPERATIONS
        and crash.signature.split(":")[0] in _ANALYSED_KINDS
    )


def _name(operation: str) -> str:
    """The call's name: `add` of "add(event)"."""
    return operation.partition("(")[0]
