"""How the Responses dialect narrows, when a failure is raised, the rules it is charged to
beyond what its pointers say (`Dialect.charging`, read by `refold.run.checks`).

The dialect charges a difference to the rules that own its pointer
(`refold.dialects.openai_responses.attribution`), among the test's own; a property of mixed streams
is
marked with many rules that own every place of an item (how items are routed, replaced,
recovered), so a refusal part lost is charged to all of them. The place's content says
more: a difference inside a refusal part, an annotation list or a reasoning item's
summary or text is the rule of that feature's (RS-REFUSAL, RS-ANNOTATIONS,
RS-REASONING-SUMMARY, RS-REASONING-TEXT, RS-USAGE-TERMINAL), and when every difference of
a failure is such a place, the failure is charged to those rules alone; a value a `.done`
event set is RS-DONE-REPLACES'; a difference that undoing a departure the reference folds
identically makes go away is that departure's. A crash is charged the same way: to the
departure whose undoing (`_charging_undos`) lets the target fold the stream, to an event
the spec says changes nothing, to the outcome rules of the terminals read after.
A rule example's difference is charged among its own rules first (`example_rules`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from refold.reference import JSON, Difference
from refold.reference.responses._envelope import LIFECYCLE_EVENTS, TERMINAL_EVENTS
from refold.reference.responses._routing import ITEM_EVENTS

from .._dialect import Charging
from ._charging_undos import announced_first, departure_at, steady_ids
from ._stream_departures import terminal_events, terminal_repeat

__all__ = ["RESPONSES_CHARGING"]


_KNOWN = frozenset(
    {
        *LIFECYCLE_EVENTS,
        *TERMINAL_EVENTS,
        *ITEM_EVENTS,
        "error",
        "response.output_item.added",
        "response.output_item.done",
    }
)
"""Every event type the reference fold acts on (any other changes nothing)."""


def _is_error(event: JSON) -> bool:
    return isinstance(event, dict) and event.get("type") == "error"


def _is_ignored(event: JSON) -> bool:
    """A keepalive, or an event whose type the fold names nowhere (RS-KEEPALIVE)."""
    kind = event.get("type") if isinstance(event, dict) else None
    return not isinstance(kind, str) or kind not in _KNOWN


_UNDOABLE: tuple[tuple[str, Callable[[JSON], bool]], ...] = (
    ("RS-ERROR-EVENT", _is_error),
    ("RS-KEEPALIVE", _is_ignored),
)
"""Events the spec says change nothing, and their rule: a crash that leaving them out of
the stream undoes is that rule's (the dialect has no crash ablation of its own)."""


def event_rule(event: JSON) -> str | None:
    """The rule of an event that changes nothing (error, keepalive, unknown type)."""
    return next((rule_id for rule_id, departs in _UNDOABLE if departs(event)), None)


def _undone(events: list[JSON]) -> list[tuple[str, list[JSON]]]:
    removed = [(rule_id, [e for e in events if not departs(e)]) for rule_id, departs in _UNDOABLE]
    return [
        *removed,
        ("RS-TERMINAL-REPEAT", terminal_repeat(events)),
        (outcome_rules(events), terminal_events(events)),
        ("RS-KEY-OUTPUT-INDEX", steady_ids(events)),
        ("RS-ORPHAN", announced_first(events)),
    ]


def outcome_rules(events: list[JSON]) -> str:
    """RS-TERMINAL-EVENTS, with the rule of each outcome the stream's terminals have."""
    kinds = {e.get("type") for e in events if isinstance(e, dict)}
    rules = [
        "RS-TERMINAL-EVENTS",
        *(
            rule
            for kind, rule in (
                ("response.incomplete", "RS-INCOMPLETE"),
                ("response.failed", "RS-FAILED"),
            )
            if kind in kinds
        ),
    ]
    return ",".join(rules)


def _same_fold(check: Any, events: list[JSON]) -> list[tuple[str, list[JSON]]]:
    """The undos the reference folds identically: events that change nothing left out,
    every terminal event but the last left out."""
    removed = [(rule_id, [e for e in events if not departs(e)]) for rule_id, departs in _UNDOABLE]
    return [*removed, ("RS-TERMINAL-REPEAT", terminal_repeat(events))]


def ablated_rule(check: Any, events: list[JSON], expected: JSON) -> tuple[str, ...] | None:
    """The rule of the departure (events that change nothing, a repeated terminal) whose
    undoing, which the reference folds identically, makes the target fold `expected`."""
    for rule_id, changed in _same_fold(check, events):
        if not changed or changed == events:
            continue
        try:
            if check.differences(expected, check.dialect.fold(changed)):
                continue
            if not check.differences(expected, check.target.fold(changed)):
                return (rule_id,)
        except Exception:  # the undone stream still fails: not this departure
            continue
    return None


def crash_rule(check: Any, events: list[JSON]) -> str | None:
    """The rule of the departure whose undoing lets the target fold the stream, if any:
    events that change nothing left out, steady item ids, items announced first."""
    for rule_id, changed in _undone(events):
        if changed and changed != events:
            try:
                check.target.fold(changed)
            except Exception:  # still crashes (TargetError or the target's own): not this one
                continue
            return rule_id
    return None


def _at(value: JSON, path: Sequence[str]) -> JSON:
    for step in path:
        if isinstance(value, dict):
            value = value.get(step)
        elif isinstance(value, list) and step.isdigit() and int(step) < len(value):
            value = value[int(step)]
        else:
            return None
    return value


def _types(values: Sequence[JSON]) -> set[str]:
    return {str(v.get("type")) for v in values if isinstance(v, dict)}


def _content_rules(steps: list[str], sides: tuple[JSON, JSON], kind: set[str]) -> set[str]:
    """The feature rule of a difference in an item's `content` (steps after the item):
    a reasoning item's is RS-REASONING-TEXT's; a message's is RS-REFUSAL's when its
    parts differ only in refusal parts (a lost one shifts the parts after it)."""
    if "reasoning" in kind:
        return {"RS-REASONING-TEXT"}
    lists = [side if isinstance(side, list) else [] for side in (_at(s, steps[:1]) for s in sides)]
    kept = [
        [p for p in found if not (isinstance(p, dict) and p.get("type") == "refusal")]
        for found in lists
    ]
    has_refusal = any("refusal" in _types(found) for found in lists)
    if has_refusal and kept[0] == kept[1]:
        return {"RS-REFUSAL"}
    parts = [_at(side, steps[:2]) for side in sides] if len(steps) >= 2 else []
    return {"RS-REFUSAL"} if "refusal" in _types(parts) else set()


_OUTCOMES = {
    "failed": ("RS-FAILED", frozenset({"status", "error"})),
    "incomplete": ("RS-INCOMPLETE", frozenset({"status", "incomplete_details"})),
}
"""An expected outcome and the top-level places the rule of that outcome decides."""


def _place_rules(pointer: str, expected: JSON, received: JSON) -> set[str]:
    """The feature rule that decides what the place at `pointer` holds, or none."""
    steps = pointer.split("/")[1:]
    if steps[:1] == ["usage"]:
        return {"RS-USAGE-TERMINAL"}
    status = expected.get("status") if isinstance(expected, dict) else None
    outcome = _OUTCOMES.get(status) if isinstance(status, str) else None
    if outcome is not None and steps[:1] and steps[0] in outcome[1]:
        return {outcome[0]}
    if len(steps) < 3 or steps[0] != "output":
        return set()
    if "annotations" in steps:
        return {"RS-ANNOTATIONS"}
    items = tuple(_at(side, steps[:2]) for side in (expected, received))
    kind = _types(items)
    if steps[2] == "summary" and "reasoning" in kind:
        return {"RS-REASONING-SUMMARY"}
    if steps[2] == "content":
        return _content_rules(steps[2:], items, kind)
    return set()


def feature_rules(
    found: Sequence[Difference], expected: JSON, received: JSON
) -> tuple[str, ...] | None:
    """The feature rules every difference's place is decided by, or None when one of the
    differences is at a place no feature rule decides alone."""
    rules: set[str] = set()
    for difference in found:
        owned = _place_rules(difference.pointer, expected, received)
        if not owned:
            return None
        rules |= owned
    return tuple(sorted(rules)) or None


_DONE_EVENTS: dict[str, tuple[str, str | None]] = {
    "arguments": ("response.function_call_arguments.done", None),
    "text": ("response.output_text.done", "content_index"),
    "refusal": ("response.refusal.done", "content_index"),
}
"""The field a `.done` event sets (RS-DONE-REPLACES) and the index that places it."""


def _set_by_done(pointer: str, events: Sequence[JSON]) -> bool:
    """Whether a `.done` event of the item at `pointer` set the value there, with no
    output_item.done for that item (which would decide it instead)."""
    steps = pointer.split("/")[1:]
    if len(steps) not in (3, 5) or steps[0] != "output" or not steps[1].isdigit():
        return False
    index, field = int(steps[1]), steps[-1]
    kind, part_key = _DONE_EVENTS.get(field, ("", None))
    if not kind or (len(steps) == 5) != (part_key is not None):
        return False
    mine = [e for e in events if isinstance(e, dict) and e.get("output_index") == index]
    if any(e.get("type") == "response.output_item.done" for e in mine):
        return False
    return any(
        e.get("type") == kind and (part_key is None or str(e.get(part_key)) == steps[3])
        for e in mine
    )


def done_rules(found: Sequence[Difference], events: Sequence[JSON]) -> tuple[str, ...] | None:
    """RS-DONE-REPLACES when every difference is at a value a `.done` event set."""
    if found and all(_set_by_done(d.pointer, events) for d in found):
        return ("RS-DONE-REPLACES",)
    return None


def _charged(check: Any, pointers: Sequence[str]) -> tuple[str, ...] | None:
    """The test's rules that decide a value at one of `pointers`, or None when none of
    them does (then each difference is charged to the rules of its place)."""
    implicated = frozenset().union(*(check.dialect.rules_at(p) for p in pointers))
    return tuple(r for r in check.rules if r in implicated) or None


def example_rules(
    check: Any, found: Sequence[Difference], expected: JSON, received: JSON, events: Sequence[JSON]
) -> tuple[str, ...] | None:
    """A rule example's difference: the test's feature rules when every difference is at
    one of their places (a lost refusal part is RS-REFUSAL's, not every rule owning a
    part), RS-DONE-REPLACES when every one is at a value a `.done` event set, else the
    departure undoing which makes it go away, else the test's rules owning its places."""
    owned = feature_rules(found, expected, received) or done_rules(found, events)
    mine = tuple(r for r in check.rules if owned and r in owned)
    return (
        mine
        or ablated_rule(check, list(events), expected)
        or _charged(check, [d.pointer for d in found])
    )


def fold_rules(
    check: Any, found: Sequence[Difference], expected: JSON, received: JSON, events: Sequence[JSON]
) -> tuple[str, ...] | None:
    """A property's difference in a whole fold: the feature rules of its places, else
    RS-DONE-REPLACES, else the departure undoing which makes it go away."""
    return (
        feature_rules(found, expected, received)
        or done_rules(found, events)
        or ablated_rule(check, list(events), expected)
    )


def read_rules(
    check: Any, found: Sequence[Difference], expected: JSON, received: JSON, events: Sequence[JSON]
) -> tuple[str, ...] | None:
    """A difference in a Response read mid-stream: the feature rules of its places."""
    return feature_rules(found, expected, received)


def _fold_crash(check: Any, events: list[JSON]) -> tuple[str, ...] | None:
    found = crash_rule(check, events)
    return tuple(found.split(",")) if found is not None else None


def _add_crash(earlier: list[JSON], event: JSON) -> tuple[str, ...] | None:
    found = event_rule(event) or departure_at(event, earlier)
    return (found,) if found is not None else None


def _read_crash(events: list[JSON]) -> tuple[str, ...] | None:
    """The outcome rules, when the terminals read after are incomplete or failed ones."""
    found = outcome_rules(events)
    return tuple(found.split(",")) if "," in found else None


RESPONSES_CHARGING = Charging(
    fold_crash=_fold_crash,
    add_crash=_add_crash,
    read_crash=_read_crash,
    narrowings={"fold": fold_rules, "example": example_rules, "read": read_rules},
)
"""The Responses dialect's narrowing of a failure when it is raised."""
