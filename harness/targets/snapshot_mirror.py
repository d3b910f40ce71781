"""LIFE-SNAPSHOT across a process boundary: responses handed out, mirrored both ways.

In-process, a response a target hands out is the very object the suite holds, so two bugs
show: a target that later changes the object it handed out (a live snapshot), and a
target whose state changes when the suite changes the object it was handed (its internal
state handed out). Over the protocol every reply is a copy, which would hide both. So
the isolated worker and the harness each keep the responses an accumulator handed out,
with the value last synchronised, and exchange what changed on either side with every
accumulator call (`"snapshots": {"0": {...}}`, by hand-out number): the harness sends the
suite's changes, the worker applies them in place to the target's objects, calls the
target, and sends back the target's changes, which the harness applies in place to the
suite's objects. What the suite sees is what it would see in-process.
"""

from __future__ import annotations

from refold.reference import JSON, JSONObject
from refold.reference._json import copy_json

__all__ = ["SnapshotMirror", "assign_in_place"]


class SnapshotMirror:
    """The responses one accumulator handed out, and their last synchronised values."""

    def __init__(self) -> None:
        self._handed: list[tuple[JSONObject, JSON]] = []

    def hand_out(self, response: JSONObject) -> None:
        """Start mirroring a response just handed out."""
        self._handed.append((response, copy_json(response)))

    def outgoing(self) -> JSONObject:
        """The responses changed on this side since the last exchange, by number."""
        changed: JSONObject = {}
        for number, (live, synced) in enumerate(self._handed):
            if live != synced:
                value = copy_json(live)
                changed[str(number)] = value
                self._handed[number] = (live, copy_json(value))
        return changed

    def incoming(self, changed: JSON) -> None:
        """Apply the other side's changes in place, so every holder of an object sees them."""
        if not isinstance(changed, dict):
            return
        for key, value in changed.items():
            number = int(key) if key.isdigit() else -1
            if 0 <= number < len(self._handed) and isinstance(value, dict):
                live, _ = self._handed[number]
                assign_in_place(live, value)
                self._handed[number] = (live, copy_json(value))


def assign_in_place(target: JSONObject | list[JSON], value: JSONObject | list[JSON]) -> None:
    """Make `target` equal to `value` keeping the identity of every container that stays
    (a target may hold a nested object of what it handed out, not only the outer one)."""
    if isinstance(target, dict) and isinstance(value, dict):
        for key in [k for k in target if k not in value]:
            del target[key]
        for key, item in value.items():
            target[key] = _merged(target.get(key), item) if key in target else item
    elif isinstance(target, list) and isinstance(value, list):
        for index, item in enumerate(value[: len(target)]):
            target[index] = _merged(target[index], item)
        del target[len(value) :]
        target.extend(value[len(target) :])


def _merged(old: JSON, new: JSON) -> JSON:
    if (isinstance(old, dict) and isinstance(new, dict)) or (
        isinstance(old, list) and isinstance(new, list)
    ):
        assign_in_place(old, new)
        return old
    return new
