"""Which rules a difference is evidence against when its pointer leaves a choice: ablation.

A difference is charged by its pointer (`refold.attribution`): to the rules that decide
the value there, the test's own among them when it has any. A stream that departs from
the plain shape makes rules owners that the defect may have nothing to do with: which
block a slot holds is decided by the blocks' order, re-opening and start content, so a
target that merges text blocks differs at `/content/0/text` in a test of re-opened
blocks as in one of plain text, and a test's rule among the owners wins. Whether the
departure matters is found out as for a crash (`refold.verdicts.crashes`), one pointer at a time:

* the difference is reproduced first: the target folds the failing stream and its fold
  differs from the reference's at that pointer (a difference a fold does not show, a
  handed-out Message changed later, say, is charged by its pointer alone);
* each departure present is undone, one at a time, by a change the reference folds
  identically except at the pointers of its rule (`Ablation.difference_undos`), and the
  target folds the undone stream:
  - the fold still differs there: the departure is not needed for the defect, its rule
    is *cleared*, and the walk goes on from the undone stream (so a departure an undo
    brings out, a block of message_start sent again as an event, is tried too);
  - the fold no longer differs there: the departure is *needed*, and the difference is
    evidence against the rules that decide how it folds (and those its undo leaves with
    nothing to decide, routing by index once the blocks are in order), the test's own
    among them when it has any, as a crash is charged to such a departure;
* when no departure is needed, the difference is charged by its pointer on the stream
  it was left on: the cleared rules, and those that stream gives nothing to decide
  (`Dialect.absent_departures`, `Dialect.undecided_at`), are no evidence.

The cost is bounded: one fold to reproduce and at most one per kind of departure present,
for each pointer, each stream folded once (memoised), at most `_MAX_RUNS` folds per
failure and none after a fold that did not end in a raise (a timeout would cost one per
fold); once per failed test, after shrinking (the plugin's report hook), never while
Hypothesis runs. A dialect without `difference_undos` charges differences by pointer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from refold.reference import JSON, Difference, RefoldError

from ..errors import TargetError
from ..run.projection import projected_differences
from ..targets import Target
from .undoing import Probe

__all__ = ["DifferenceAblation", "Verdict", "ablate"]

_MAX_RUNS = 48
"""Target folds per failure: about three walks over every kind of departure."""

_CRASHES = frozenset({"raised", "crashed"})
"""The kinds of target error after which the target is folded again (not a timeout)."""


@dataclass(frozen=True)
class Verdict:
    """What undoing the departures of a stream showed about the difference at one pointer."""

    needed: frozenset[str]
    """The rules deciding how the departures of `needed_by` fold: the charged ones."""
    needed_by: tuple[str, ...]
    """The departures (by rule) whose undoing made the difference go away."""
    undone: tuple[str, ...]
    """The departures (by rule) whose undoing left the difference in place, of the rules
    owning the pointer (the ones its pointer would have charged)."""
    cleared: frozenset[str]
    """The rules the difference is no evidence against: those of `undone`, and those the
    stream it was left on gives nothing to decide."""


@dataclass
class DifferenceAblation:
    """The verdicts of a failure's differences, by pointer (one that could not be
    reproduced or has no departure to undo has none)."""

    verdicts: dict[str, Verdict] = field(default_factory=dict)
    runs: int = 0
    """How many times the target folded a stream."""

    def describe(self) -> list[str]:
        """The lines a failure message shows about the ablation."""
        needed = sorted({r for v in self.verdicts.values() for r in v.needed_by})
        undone = sorted({r for v in self.verdicts.values() for r in v.undone} - set(needed))
        lines = []
        if needed:
            lines.append(
                f"undoing the departure of {', '.join(needed)} from the plain shape "
                f"(a change the reference folds identically but at its rule's "
                f"pointers) makes a difference go away: charged to that departure"
            )
        if undone:
            lines.append(
                f"undoing the departure of {', '.join(undone)} leaves the "
                f"differences in place: not evidence against {', '.join(undone)}"
            )
        return lines


class _Runs:
    """The target's and the reference's folds of streams, each stream folded once."""

    def __init__(self, target: Target) -> None:
        self._target = target
        self.dialect = target.dialect
        self._differing: dict[str, frozenset[str] | None] = {}
        self._probes: dict[str, list[Probe]] = {}
        self.count = 0
        self._stopped = False

    def differing(self, stream: list[JSON]) -> frozenset[str] | None:
        """The pointers at which the target's fold of `stream` differs from the
        reference's; None when either refuses it or the budget is spent."""
        key = json.dumps(stream, sort_keys=True)
        if key not in self._differing:
            if self.count >= _MAX_RUNS or self._stopped:
                return None
            self.count += 1
            self._differing[key] = self._fold(stream)
        return self._differing[key]

    def _fold(self, stream: list[JSON]) -> frozenset[str] | None:
        dialect = self.dialect
        try:
            expected = dialect.fold(stream)
        except RefoldError:
            return None  # a stream the reference refuses has nothing to compare with
        try:
            received = self._target.fold(stream)
        except TargetError as exc:
            if exc.kind not in _CRASHES:
                self._stopped = True  # a target that hangs or misbehaves is not re-run
            return None  # a crash on an undone stream tells nothing about this difference
        found = projected_differences(dialect, self._target.projection, expected, received)
        return frozenset(d.pointer for d in found)

    def keeps_place(self, stream: list[JSON], pointer: str) -> bool:
        """Whether the reference's fold of `stream` still has the object or list the
        value at `pointer` sits in (a probe that removes a candidate removes its parts)."""
        try:
            folded: JSON = self.dialect.fold(stream)
        except RefoldError:
            return False
        return _resolves(folded, pointer.rsplit("/", 1)[0])

    def probes(self, stream: list[JSON], claimed: frozenset[str]) -> list[Probe]:
        """The dialect's undos of the departures present in `stream`."""
        undos = self.dialect.ablation
        if undos is None or undos.difference_undos is None:
            return []
        key = json.dumps(stream, sort_keys=True)
        if key not in self._probes:
            self._probes[key] = undos.difference_undos(stream, claimed)
        return self._probes[key]


def ablate(
    chunks: list[JSON],
    differences: Sequence[Difference],
    target: Target,
    claimed: frozenset[str] | None,
) -> DifferenceAblation | None:
    """The verdict of each difference of a failure on `chunks` whose stream departs from
    the plain shape; None when the target's dialect has no `difference_undos`."""
    ablation = target.dialect.ablation
    if ablation is None or ablation.difference_undos is None or not chunks:
        return None
    runs = _Runs(target)
    found = DifferenceAblation()
    features = claimed if claimed is not None else frozenset(target.dialect.features)
    for pointer in dict.fromkeys(d.pointer for d in differences):
        verdict = _walk(pointer, chunks, runs, features) if pointer else None
        if verdict is not None:
            found.verdicts[pointer] = verdict
    found.runs = runs.count
    return found


def _walk(pointer: str, chunks: list[JSON], runs: _Runs, claimed: frozenset[str]) -> Verdict | None:
    """Undo the departures of `chunks` one at a time, keeping those the difference at
    `pointer` needs (see the module docstring)."""
    if not runs.probes(chunks, claimed):
        return None  # nothing departs: the pointer says it all
    shown = runs.differing(chunks)
    if shown is None or pointer not in shown:
        return None
    absent = _absent(runs)
    current, needed, needed_by, undone = chunks, set[str](), list[str](), list[str]()
    tried: set[str] = set()
    while (
        step := next((p for p in runs.probes(current, claimed) if p[0] not in tried), None)
    ) is not None:
        rule_id, deciding, stream = step
        tried.add(rule_id)
        if not runs.keeps_place(stream, pointer):
            continue  # a change that removes where the difference is tells nothing of it
        after = runs.differing(stream)
        if after is None:
            continue  # inconclusive: this departure stays, and is not charged
        if pointer in after:
            current = stream
            undone.append(rule_id)
        else:
            needed |= deciding | (absent(stream) - absent(current))
            needed_by.append(rule_id)
    cleared = set(undone) | absent(current) | _undecided(runs, current, pointer)
    owners = runs.dialect.rules_at(pointer)  # the others were never charged here
    return Verdict(
        frozenset(needed),
        tuple(needed_by),
        tuple(r for r in undone if r in owners),
        frozenset(cleared - needed),
    )


def _resolves(document: JSON, pointer: str) -> bool:
    """Whether the JSON pointer `pointer` names a value of `document`."""
    value = document
    for token in pointer.split("/")[1:] if pointer else []:
        step = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and step in value:
            value = value[step]
        elif isinstance(value, list) and step.isdigit() and int(step) < len(value):
            value = value[int(step)]
        else:
            return False
    return True


def _absent(runs: _Runs) -> Callable[[list[JSON]], frozenset[str]]:
    known = runs.dialect.absent_departures
    return known if known is not None else (lambda _stream: frozenset())


def _undecided(runs: _Runs, stream: list[JSON], pointer: str) -> frozenset[str]:
    known = runs.dialect.undecided_at
    return known(stream, pointer) if known is not None else frozenset()
