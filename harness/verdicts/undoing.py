"""Undoing a dialect's departures from its plain shape: one at a time, and each alone.

A dialect's ablation names its departures, each as `(rule id, undo)` where
`undo(stream) -> stream` gives the stream without that departure (it is present when
undoing it changes the stream). What it means for an undo to be trusted is the same in
every dialect: the reference folds the undone stream as it folds the stream at hand,
except at pointers a rule deciding how the departure folds owns (`rules_at`). A dialect
whose undos must leave the fold unchanged everywhere gives a `rules_at` that owns no
pointer. A stream the reference refuses has no plain shape to return to, so it gives no
undo.

`Undoing` is that driver, parameterised by the dialect's data; the crash and difference
ablations (`refold.verdicts.crashes`, `refold.verdicts.difference_ablation`) call its
`applicable_undos`, `departures_alone` and `difference_probes` through the dialect's
`Ablation`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from refold.reference import JSON, Difference, JSONObject, RefoldError

__all__ = ["Probe", "Undo", "Undoing", "folded_or_none", "own_rule"]

Undo = Callable[[list[JSON]], list[JSON]]

Probe = tuple[str, frozenset[str], list[JSON]]
"""What a difference ablation undoes (`Ablation.difference_undos`): (rule id of the
departure undone, the rules that decide how it folds, undone stream)."""


def folded_or_none(
    fold: Callable[[list[JSON]], JSONObject], nothing: type[RefoldError]
) -> Callable[[list[JSON]], JSONObject | None]:
    """The reference's fold `fold`, giving None where it raises `nothing` (the stream holds
    nothing to fold yet: a prefix, where a crash is located) and raising `RefoldError`
    where it refuses the stream: an `Undoing`'s `fold`."""

    def folded(stream: list[JSON]) -> JSONObject | None:
        try:
            return fold(stream)
        except nothing:
            return None

    return folded


def own_rule(rule_id: str, stream: list[JSON]) -> frozenset[str]:
    """The rules that decide how a departure folds, for a dialect where that is its own."""
    return frozenset({rule_id})


@dataclass(frozen=True)
class Undoing:
    """A dialect's departures and what its reference says of an undone stream.

    `fold` is the reference's fold, None where the stream holds nothing to fold yet (a
    prefix), raising `RefoldError` where it refuses the stream; `deciding(rule id,
    stream)` the rules whose pointers an undo of that departure may change the fold at.
    """

    departures: Sequence[tuple[str, Undo]]
    fold: Callable[[list[JSON]], JSONObject | None]
    differences: Callable[[JSONObject, JSONObject], Sequence[Difference]]
    rules_at: Callable[[str], frozenset[str]]
    deciding: Callable[[str, list[JSON]], frozenset[str]] = own_rule
    crash_only: frozenset[str] = frozenset()
    """Departures undone to charge a crash, never a difference: their rule also decides
    the plain shape, so a difference their undoing leaves in place may still be that
    rule's, and a difference probe would clear it (`difference_probes`)."""

    def folds_alike(
        self, expected: JSONObject | None, stream: list[JSON], owned: frozenset[str]
    ) -> bool:
        """Whether the reference folds `stream` as `expected` except at pointers a rule of
        `owned` decides (a stream it refuses does not; nothing folded is alike nothing)."""
        try:
            received = self.fold(stream)
        except RefoldError:
            return False
        if expected is None or received is None:
            return expected is received
        differing = self.differences(expected, received)
        return all(self.rules_at(d.pointer) & owned for d in differing)

    def applicable_undos(self, stream: list[JSON]) -> list[tuple[str, list[JSON]]]:
        """(rule id, undone stream) for every departure present in `stream` whose undoing
        the reference folds identically except at the pointers its deciding rules own;
        each deciding rule is charged with it, the departure's own first."""
        try:
            expected = self.fold(stream)
        except RefoldError:
            return []  # a stream the reference refuses has no plain shape to return to
        found: list[tuple[str, list[JSON]]] = []
        for rule_id, undo in self.departures:
            undone = undo(stream)
            deciding = self.deciding(rule_id, stream)
            if undone != stream and self.folds_alike(expected, undone, deciding):
                found += [(rule, undone) for rule in sorted(deciding, key=_first(rule_id))]
        return found

    def difference_probes(self, stream: list[JSON]) -> list[Probe]:
        """(rule id, its deciding rules, undone stream) per departure `applicable_undos`
        gives for `stream` but `crash_only`'s: what a difference ablation undoes
        (`refold.verdicts.difference_ablation`)."""
        departures = {rule_id for rule_id, _ in self.departures} - self.crash_only
        return [
            (rule_id, self.deciding(rule_id, stream), undone)
            for rule_id, undone in self.applicable_undos(stream)
            if rule_id in departures
        ]

    def departures_alone(self, stream: list[JSON]) -> list[tuple[str, list[JSON]]]:
        """(rule id, stream) per departure present in `stream`: the stream with every other
        departure undone, so it departs from the plain shape by that one alone; first
        ("", stream) with every departure undone. Only streams the reference folds as it
        folds `stream`, except at pointers the undone departures' deciding rules own, are
        given, and none when the plain one is not."""
        try:
            expected = self.fold(stream)
        except RefoldError:
            return []
        present = [rule_id for rule_id, undo in self.departures if undo(stream) != stream]
        found: list[tuple[str, list[JSON]]] = []
        for kept in ["", *present]:
            undone = stream
            for rule_id, undo in self.departures:
                if rule_id in present and rule_id != kept:
                    undone = undo(undone)
            owned = frozenset[str]().union(
                *(self.deciding(rule_id, stream) for rule_id in present if rule_id != kept)
            )
            alike = self.folds_alike(expected, undone, owned)
            if not kept and not alike:
                return []
            if alike and undone != stream:
                found.append((kept, undone))
        return found


def _first(rule_id: str) -> Callable[[str], tuple[bool, str]]:
    return lambda rule: (rule != rule_id, rule)
