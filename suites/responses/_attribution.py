"""Which rules a difference found by a property of many rules is charged to, narrowed by
what the differing place holds (suite-private).

The dialect charges a difference to the rules that own its pointer
(`refold.dialects.openai_responses.attribution`), among the test's own; a property of mixed streams
is
marked with many rules that own every place of an item (how items are routed, replaced,
recovered), so a refusal part lost is charged to all of them. The place's content says
more: a difference inside a refusal part, an annotation list or a reasoning item's
summary or text is the rule of that feature's (RS-REFUSAL, RS-ANNOTATIONS,
RS-REASONING-SUMMARY, RS-REASONING-TEXT, RS-USAGE-TERMINAL), and when every difference of
a failure is such a place, the failure is charged to those rules alone. Any other
difference leaves the harness's attribution as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from refold.reference import JSON, Difference, JSONObject
from refold.reference.responses._envelope import LIFECYCLE_EVENTS, TERMINAL_EVENTS
from refold.reference.responses._routing import ITEM_EVENTS
from refold.run.checks import ConformanceFailure

from ._undos import announced_first, completed_terminals, last_terminal_only, steady_ids

__all__ = [
    "ablated_rule",
    "crash_rule",
    "done_rules",
    "event_rule",
    "expect_like",
    "feature_rules",
    "fold_charged",
    "outcome_rules",
]


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
        ("RS-TERMINAL-REPEAT", last_terminal_only(events)),
        (outcome_rules(events), completed_terminals(events)),
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
    return [*removed, ("RS-TERMINAL-REPEAT", last_terminal_only(events))]


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


def fold_charged(check: Any, events: list[JSON]) -> JSONObject:
    """`check.fold(events)`, with a crash that removing events which change nothing undoes
    charged to their rule."""
    __tracebackhide__ = True
    try:
        folded: JSONObject = check.fold(events)
    except ConformanceFailure as failure:
        found = crash_rule(check, events) if failure.crash is not None else None
        if found is None:
            raise
        raise check.fail(
            f"{failure.summary}; undoing the stream's departure of {found} lets it fold",
            rules=tuple(found.split(",")),
            events=events,
            target_error=failure.target_error,
            crash=failure.crash,
        ) from failure
    return folded


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


def expect_like(
    check: Any, events: list[JSON], expected: JSONObject, *, what: str = "the expected response"
) -> JSONObject:
    """Fold `events` through the target and fail unless the result is `expected`; a
    failure whose differences are all at one feature's places is that feature's."""
    __tracebackhide__ = True
    received = fold_charged(check, events)
    found = check.differences(expected, received)
    if found:
        narrowed = (
            feature_rules(found, expected, received)
            or done_rules(found, events)
            or ablated_rule(check, events, expected)
        )
        raise check.fail(
            f"the fold differs from {what} at {len(found)} place(s)",
            rules=narrowed,
            events=events,
            differences=found,
            expected=expected,
            received=received,
            compared_fold=True,
        )
    return received
