"""A failure found on a departing stream, reported on the stream with its departures undone.

verdicts.md §2: "a failure found on a departing stream whose departures can all be undone
while the failure stays (the existing ablation) is reported on the undone, less departing
stream". The undone stream is the dialect's own ablation's (`Ablation.departures_alone`:
its first entry is the stream with every departure present undone, given only when the
reference folds it as it folds the failing one, but at the undone departures' pointers),
and the failure stays when:

* a crash: the same operation raises the same way on it (`refold.verdicts.crashes.raised_again`);
  only a crash ablation left unexplained is tried, since one it charged went away when a
  departure was undone;
* a fold comparison: the target's fold of it still differs from the reference's at
  every pointer the failure differed at; only a failure whose difference ablation found
  no departure needed is tried (`refold.verdicts.difference_ablation`).

The failure is then changed in place (its identity is what the search's records of it
are keyed by): its stream, values, differences or crash are the undone stream's, the
difference ablation is run again there, and a line says which departures were undone.
Nothing moves unless the undone stream's shape is strictly less departing, so a dialect
that cannot tell shapes (every stream `synthetic`) reports every failure where it was
found. The cost is one or two target calls per failed test, after shrinking.
"""

from __future__ import annotations

import re

from refold.reference import JSON, SHAPES, RefoldError, Shape

from ..errors import TargetError
from ..run.checks import Check, ConformanceFailure
from ..targets import Target
from .crashes import analyse, raised_again
from .difference_ablation import ablate
from .found_on import shape_of, tells_shapes

__all__ = ["report_on_undone"]

_PLACES = re.compile(r"at \d+ place\(s\)")


def report_on_undone(
    failure: ConformanceFailure, target: Target, *, rules: tuple[str, ...], masked: frozenset[str]
) -> bool:
    """Move `failure` onto its undone stream when it stays there and that stream departs
    less (see the module docstring); whether it moved. `rules` and `masked` are the
    failed test's rules and the known failures masked in it."""
    ablation = target.dialect.ablation
    if ablation is None or not failure.chunks or not tells_shapes(target.dialect):
        return False
    before = failure.stream_shape
    if before.shape == "documented":
        return False
    alone = ablation.departures_alone(failure.chunks)
    if not alone or alone[0][0]:
        return False
    undone = alone[0][1]
    if failure.crash is not None:
        moved = _crash_stays(failure, undone, target, before.shape)
    elif failure.compared_fold and failure.differences:
        moved = _differences_stay(failure, undone, target, rules, masked, before.shape)
    else:
        moved = False
    if moved:
        named = ", ".join(before.departures) or "unregistered departures"
        failure.shown = (
            *failure.shown,
            f"shown on the stream with its departures from the "
            f"documented shape undone ({before.shape}: {named}): the failure "
            f"stays there",
        )
    return moved


def _departs_less(target: Target, stream: list[JSON], than: Shape) -> bool:
    return SHAPES.index(shape_of(target.dialect, stream).shape) < SHAPES.index(than)


def _crash_stays(
    failure: ConformanceFailure, undone: list[JSON], target: Target, before: Shape
) -> bool:
    crash = failure.crash
    if crash is None or crash.explained or not _departs_less(target, undone, before):
        return False
    again = raised_again(crash, undone, target)
    if again is None:
        return False
    shown = undone[: again.at_chunk] if again.at_chunk is not None else undone
    if not _departs_less(target, shown, before):
        return False
    analyse(again, shown, target)
    failure.chunks, failure.crash = shown, again
    return True


def _differences_stay(
    failure: ConformanceFailure,
    undone: list[JSON],
    target: Target,
    rules: tuple[str, ...],
    masked: frozenset[str],
    before: Shape,
) -> bool:
    verdicts = failure.ablation.verdicts if failure.ablation is not None else {}
    if any(v.needed_by for v in verdicts.values()):
        return False  # a departure the difference needs is evidence, not noise
    if not _departs_less(target, undone, before):
        return False
    try:
        expected = target.dialect.fold(undone)
        received = target.fold(undone)
    except (RefoldError, TargetError):
        return False
    check = Check(target)
    check.rules, check.masked = rules, masked
    found = check.differences(expected, received)
    if not {d.pointer for d in failure.differences} <= {d.pointer for d in found}:
        return False
    failure.chunks, failure.expected, failure.received = undone, expected, received
    failure.differences = found
    failure.summary = _PLACES.sub(f"at {len(found)} place(s)", failure.summary)
    failure.ablation = ablate(undone, found, target, failure.claimed)
    return True
