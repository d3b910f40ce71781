"""Which rule an event the adapter got wrong points at: the places of events.md's rules.

The checker's own checks name their rule; two kinds of evidence do not, and are charged
here, one violation per place, so that a stream the adapter normalises wrongly fails the
rules whose places differ and no others (verdicts.md §2):

* a differential (events.md §5.6, or a rule example's expected events): the adapter's
  stripped events against the expected ones. The two lists are aligned first (equal
  events matched in order, as a diff does), so one missing event is one violation and not
  a shift of every later one; each event missing, extra or differing is charged by its
  variant (`EVENT_RULES`) and, for a field that differs, by that field (`FIELD_RULES`);
  the outcome by the kind that differs (`OUTCOME_RULES`).
* a raise (`missing_at_raise`): the adapter raised reading frame k, so the events the
  reference emits for frame k are missing (each its variant's rule), and so is the frame
  (EV-FRAME-COVER).

Each violation carries its impact (verdicts.md §3): an event missing is a `loss`, one
extra or in another order a `corruption`, a field the canonical differences of its pair,
and everything a raise left missing a `crash`.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator, Sequence

from ..._compare import Difference
from ..._impact import impact_of
from ..._json import JSON
from ..._outcomes import Impact
from .._compare import differences
from ._violation import Violation

__all__ = [
    "EVENT_RULES",
    "FIELD_RULES",
    "OUTCOME_RULES",
    "differing_events",
    "differing_outcome",
    "missing_at_raise",
]

EVENT_RULES: dict[str, str] = {
    "TextDelta": "EV-TEXT",
    "ToolCallStarted": "EV-CALL-STARTED",
    "ToolCallArgumentsDelta": "EV-ARGS-DELTA",
    "ToolCallCompleted": "EV-STARTED-COMPLETED",
    "Usage": "EV-USAGE",
    "Opaque": "EV-OPAQUE-FALLBACK",
    "Completed": "EV-COMPLETED-LAST",
}
"""Event variant → the rule that calls for an event of it (§2, §4): what a missing or an
extra event of that variant breaks."""

FIELD_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "ToolCallStarted": (("/id", "EV-CALL-ROUTE"),),
    "ToolCallArgumentsDelta": (("/id", "EV-CALL-ROUTE"),),
    "ToolCallCompleted": (
        ("/call/id", "EV-CALL-ROUTE"),
        ("/call/name", "EV-CALL-IDENTITY"),
        ("/call/arguments", "EV-ARGS-PARSED"),
    ),
    "Opaque": (("/event_type", "EV-OPAQUE-TYPE"),),
    "Completed": (
        ("/turn/output_text", "EV-FOLD-AGREES"),
        ("/turn/tool_calls", "EV-TURN-CALLS"),
        ("/turn/usage", "EV-USAGE-LAST"),
        ("/turn/stop_reason", "EV-STOP-MAP"),
        ("/turn/model", "EV-TURN-FIELDS"),
        ("/turn/provider", "EV-TURN-FIELDS"),
        ("/turn", "EV-FOLD-AGREES"),
    ),
}
"""Event variant → (pointer prefix within the event, the rule deciding the value there);
a field no row names is the variant's own rule's (`EVENT_RULES`)."""

OUTCOME_RULES: dict[str, str] = {
    "truncated": "EV-TRUNCATED",
    "provider_error": "EV-ERROR-FRAME",
    "invalid_tool_arguments": "EV-ARGS-INVALID",
    "inconsistent_tool_arguments": "EV-ARGS-CONSERVE",
    "unsupported": "EV-CHOICE0",
}
"""Error kind → the rule that calls for it; an outcome no kind explains is
EV-COMPLETED-LAST's (frames that end well complete)."""


def _key(event: JSON) -> str:
    return json.dumps(event, sort_keys=True, ensure_ascii=False)


def _variant(event: JSON) -> str:
    kind = event.get("type") if isinstance(event, dict) else None
    return kind if isinstance(kind, str) else "(not an event)"


def _event_rule(event: JSON) -> str:
    return EVENT_RULES.get(_variant(event), "EV-GRAMMAR")


def _field_rule(variant: str, pointer: str) -> str:
    for prefix, rule_id in FIELD_RULES.get(variant, ()):
        if pointer == prefix or pointer.startswith(prefix + "/"):
            return rule_id
    return EVENT_RULES.get(variant, "EV-GRAMMAR")


def _show(value: JSON, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def differing_events(
    expected: Sequence[JSON], received: Sequence[JSON], *, expected_error: bool = False
) -> list[Violation]:
    """One violation per event place where `received` (the adapter's events, stripped)
    departs from `expected` (the reference's, or a rule example's), each charged to the
    rule of that place. `expected_error`: the expected outcome is `error`, so events the
    adapter adds after the expected ones break EV-NOTHING-AFTER-ERROR (and an extra
    Completed EV-NO-COMPLETED-ON-ERROR)."""
    keys = [_key(e) for e in expected], [_key(e) for e in received]
    matcher = difflib.SequenceMatcher(None, *keys, autojunk=False)
    opcodes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    moved = _moved(opcodes, *keys)
    found: list[Violation] = []
    for tag, i1, i2, j1, j2 in opcodes:
        paired = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for offset in range(paired):
            found.extend(
                _pair(i1 + offset, expected[i1 + offset], j1 + offset, received[j1 + offset])
            )
        found.extend(
            _missing(i, expected[i], j1 + paired)
            if i not in moved
            else _moved_event(i, expected[i], moved[i])
            for i in range(i1 + paired, i2)
        )
        found.extend(
            _extra(j, received[j], after_end=i2 >= len(expected) and expected_error)
            for j in range(j1 + paired, j2)
            if j not in moved.values()
        )
    return found


def _moved(
    opcodes: Sequence[tuple[str, int, int, int, int]], expected: list[str], received: list[str]
) -> dict[int, int]:
    """Expected event → the received event equal to it that the alignment left unmatched
    elsewhere: the same event in another place, not one lost and another invented."""
    unmatched = [j for tag, _, _, j1, j2 in opcodes if tag != "delete" for j in range(j1, j2)]
    moved: dict[int, int] = {}
    for tag, i1, i2, _, _ in opcodes:
        for i in range(i1, i2) if tag != "insert" else ():
            j = next((j for j in unmatched if received[j] == expected[i]), None)
            if j is not None:
                unmatched.remove(j)
                moved[i] = j
    return moved


def _pair(number: int, expected: JSON, at: int, received: JSON) -> Iterator[Violation]:
    """The violations of an event in the place of an expected one: another variant is the
    expected one missing and this one extra; the same variant, one per rule of the fields
    that differ."""
    variant = _variant(expected)
    if variant != _variant(received):
        # one place: what the frame called for came as another variant (an Opaque keeps
        # the content only in the frame a runtime strips)
        yield Violation(
            _event_rule(expected),
            f"the expected event {number}, {_show(expected)}, comes as {_show(received)}",
            event=at,
            impact="loss" if _variant(received) == "Opaque" else "corruption",
        )
        return
    by_rule: dict[str, list[Difference]] = {}
    for difference in differences(expected, received):
        by_rule.setdefault(_field_rule(variant, difference.pointer), []).append(difference)
    for rule_id, found in by_rule.items():
        yield Violation(
            rule_id,
            f"{variant} differs from the expected event {number}: "
            f"{found[0]}" + (f" (+{len(found) - 1} more)" if len(found) > 1 else ""),
            event=at,
            pointer=found[0].pointer,
            impact=impact_of(found, crashed=False) or "corruption",
        )


def _moved_event(number: int, expected: JSON, at: int) -> Violation:
    return Violation(
        "EV-FRAME-ORDER",
        f"the expected event {number}, {_show(expected)}, "
        f"comes as event {at}, out of the expected order",
        event=at,
        impact="corruption",
    )


def _missing(number: int, expected: JSON, at: int) -> Violation:
    return Violation(
        _event_rule(expected),
        f"the expected event {number}, {_show(expected)}, is missing (it would be event {at})",
        impact="loss",
    )


def _extra(at: int, received: JSON, *, after_end: bool) -> Violation:
    rule_id = _event_rule(received)
    if after_end:
        rule_id = (
            "EV-NO-COMPLETED-ON-ERROR"
            if _variant(received) == "Completed"
            else "EV-NOTHING-AFTER-ERROR"
        )
    return Violation(
        rule_id,
        f"{_show(received)} is not among the expected events"
        + (" (it follows the error frame's)" if after_end else ""),
        event=at,
        impact="corruption",
    )


def differing_outcome(expected: tuple[JSON, JSON], received: tuple[JSON, JSON]) -> list[Violation]:
    """The violation of an outcome (outcome, error kind) other than the expected one,
    charged to the rule calling for the expected error kind, else for the received one:
    a completed turn where an error was due passes a cut or failed stream off as whole
    (`corruption`); an error where the turn completes loses it (`loss`)."""
    if expected == received:
        return []
    kind = expected[1] if expected[0] == "error" else received[1]
    rule_id = (
        OUTCOME_RULES.get(kind, "EV-COMPLETED-LAST")
        if isinstance(kind, str)
        else "EV-COMPLETED-LAST"
    )
    impact: Impact = (
        "loss" if expected[0] == "completed" and received[0] == "error" else "corruption"
    )
    return [
        Violation(
            rule_id,
            f"the outcome is {received[0]!r} ({received[1]}); expected "
            f"{expected[0]!r} ({expected[1]})",
            pointer="/outcome",
            impact=impact,
        )
    ]


def missing_at_raise(
    frame_number: int,
    frame: JSON,
    expected: Sequence[JSON],
    *,
    at_end: tuple[JSON, JSON] | None = None,
) -> list[Violation]:
    """What the adapter's raise reading frame `frame_number` left undone: each event the
    reference emits for that frame (`expected`, stripped), and the frame itself, which no
    event covers (EV-FRAME-COVER; not [DONE], nor a frame the reference emits nothing for,
    such as one after an error frame); every one a `crash`. `at_end`: the raise came at the end
    of the body (`frame_number` is the number of frames), where the reference's outcome
    (outcome, error kind) is due: with no event due, the outcome's rule is charged."""
    reading = "at the end of the body" if at_end is not None else f"reading frame {frame_number}"
    found = [
        Violation(
            _event_rule(event),
            f"the adapter raised {reading}; the expected {_variant(event)} there is missing",
            frame=frame_number,
            impact="crash",
        )
        for event in expected
    ]
    if at_end is not None:
        kind = at_end[1] if at_end[0] == "error" else None
        rule_id = (
            OUTCOME_RULES.get(kind, "EV-COMPLETED-LAST")
            if isinstance(kind, str)
            else "EV-COMPLETED-LAST"
        )
        return found or [
            Violation(
                rule_id,
                f"the adapter raised {reading}; the expected "
                f"outcome {at_end[0]!r} ({at_end[1]}) is missing",
                pointer="/outcome",
                impact="crash",
            )
        ]
    if frame != "[DONE]" and expected:  # a frame nothing is due for need not be covered
        found.append(
            Violation(
                "EV-FRAME-COVER",
                f"the adapter raised {reading}; no event covers it",
                frame=frame_number,
                impact="crash",
            )
        )
    return found
