"""What a failed rule costs and where it was found, as every report shows it (verdicts.md §4).

A results file records, per failed rule, `found_on` (the least departing stream shape it
failed on), `impact` (what its failures cost there) and `departures` (the registered
departures of its minimal stream); optionally, at the top, `departures` notes naming what
each departure id is (`{id: {"shape", "summary", "provenance"}}`). Everything here reads
those keys and nothing else: a file written before shapes, or a value outside the
vocabularies (a hand edit), shows no verdict rather than a guessed one.

The **headline** of a run, which every report and the matrix open with, sorts the failed
rules the way a maintainer triages them: those failing on `documented` streams, by impact
(worst first); then those failing only on `observed` departures, each departure named; then
those failing only on `synthetic` ones; then any recorded without a shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from refold.reference import IMPACTS, SHAPES, Impact, Shape

from ._model import by_feature

__all__ = [
    "SHAPE_SHORT",
    "Headline",
    "Verdict",
    "by_impact",
    "departure_label",
    "departure_note",
    "headline_items",
    "headline_lines",
    "headline_of",
    "verdict_of",
    "verdict_words",
]

SHAPE_SHORT: dict[Shape, str] = {"documented": "doc", "observed": "obs", "synthetic": "syn"}
"""A shape in a matrix cell (`fail · doc · loss`)."""


class Verdict(NamedTuple):
    """A failed rule's recorded verdict; each part None (or empty) when not recorded."""

    found_on: Shape | None
    impact: Impact | None
    departures: tuple[str, ...]


def verdict_of(rule: Mapping[str, Any]) -> Verdict:
    """The verdict a rule's record carries (all None for a rule that did not fail)."""
    if rule.get("status") != "failed":
        return Verdict(None, None, ())
    found_on = rule.get("found_on")
    impact = rule.get("impact")
    return Verdict(
        found_on if found_on in SHAPES else None,
        impact if impact in IMPACTS else None,
        _ids(rule.get("departures")),
    )


def _ids(value: Any) -> tuple[str, ...]:
    return tuple(str(item) for item in value) if isinstance(value, list) else ()


def verdict_words(rule: Mapping[str, Any], *, short: bool = False) -> list[str]:
    """The recorded verdict as words: ["documented", "loss"] (["doc", "loss"] when
    `short`); [] when none is recorded."""
    found = verdict_of(rule)
    words = []
    if found.found_on is not None:
        words.append(SHAPE_SHORT[found.found_on] if short else found.found_on)
    if found.impact is not None:
        words.append(found.impact)
    return words


def departure_note(results: Mapping[str, Any], departure_id: str) -> Mapping[str, Any]:
    """The results' note on a departure ({} when the file names none)."""
    notes = results.get("departures")
    note = notes.get(departure_id) if isinstance(notes, Mapping) else None
    return note if isinstance(note, Mapping) else {}


def departure_label(results: Mapping[str, Any], departure_id: str) -> str:
    """A departure as the headline names it: its id, and its summary when recorded."""
    summary = departure_note(results, departure_id).get("summary")
    return f"{departure_id} ({summary})" if isinstance(summary, str) and summary else departure_id


@dataclass
class Headline:
    """A run's failed rules sorted for triage."""

    target: str
    failed: int = 0
    documented: dict[Impact | None, list[str]] = field(default_factory=dict)
    """Rules failing on documented streams, by impact, worst first (None: not recorded)."""
    observed: list[tuple[str, Impact | None, tuple[str, ...]]] = field(default_factory=list)
    """(rule, impact, departures) of the rules failing only on observed departures."""
    synthetic: dict[Impact | None, list[str]] = field(default_factory=dict)
    """Rules failing only on synthetic streams, by impact."""
    unshaped: list[str] = field(default_factory=list)
    """Failed rules whose record names no shape (written before shapes)."""


def headline_of(results: Mapping[str, Any]) -> Headline:
    """The headline of one run, its rules in table order."""
    found = Headline(str(results.get("target", {}).get("name", "")))
    documented: dict[Impact | None, list[str]] = {}
    synthetic: dict[Impact | None, list[str]] = {}
    for rules in by_feature(dict(results)).values():
        for rule_id, rule in rules:
            if rule.get("status") != "failed":
                continue
            found.failed += 1
            verdict = verdict_of(rule)
            if verdict.found_on == "documented":
                documented.setdefault(verdict.impact, []).append(rule_id)
            elif verdict.found_on == "observed":
                found.observed.append((rule_id, verdict.impact, verdict.departures))
            elif verdict.found_on == "synthetic":
                synthetic.setdefault(verdict.impact, []).append(rule_id)
            else:
                found.unshaped.append(rule_id)
    found.documented = _worst_first(documented)
    found.synthetic = _worst_first(synthetic)
    return found


def _worst_first(groups: dict[Impact | None, list[str]]) -> dict[Impact | None, list[str]]:
    order: list[Impact | None] = [*IMPACTS, None]
    return {impact: groups[impact] for impact in order if impact in groups}


def headline_items(results: Mapping[str, Any]) -> list[tuple[int, str]]:
    """The headline as (depth, plain text) items, each renderer escaping them for its format
    (depth 0: the target; 1: a group; 2: a rule of the observed group)."""
    found = headline_of(results)
    if not found.failed:
        return [(0, f"{found.target}: no rule fails")]
    items = [
        (
            0,
            f"{found.target}: {found.failed} rule{'s' * (found.failed != 1)} "
            f"fail{'s' * (found.failed == 1)}",
        )
    ]
    if found.documented:
        items.append((1, f"on documented streams: {by_impact(found.documented)}"))
    if found.observed:
        items.append((1, "only on observed departures:"))
        for rule_id, impact, departures in found.observed:
            named = "; ".join(departure_label(results, d) for d in departures)
            items.append((2, f"{rule_id}{_impact(impact)}: {named or 'departures not recorded'}"))
    if found.synthetic:
        items.append((1, f"only on synthetic streams: {by_impact(found.synthetic)}"))
    if found.unshaped:
        items.append((1, f"recorded without a stream shape: {', '.join(found.unshaped)}"))
    return items


def headline_lines(results: Mapping[str, Any]) -> list[str]:
    """The headline as plain, indented lines:

    t: 4 rules fail
      on documented streams: loss: TEXT-JOIN, USAGE-LAST; corruption: CHOICE-ROLE
      only on observed departures:
        TOOL-NO-INDEX (loss): Q3 (tool-call fragments without `index`)
      only on synthetic streams: crash: ROB-NOT-OBJECT
    """
    return ["  " * depth + text for depth, text in headline_items(results)]


def by_impact(groups: Mapping[Impact | None, list[str]]) -> str:
    """`loss: A, B; corruption: C` (rules whose impact is not recorded: `impact not
    recorded: D`)."""
    return "; ".join(
        f"{impact or 'impact not recorded'}: {', '.join(rules)}" for impact, rules in groups.items()
    )


def _impact(impact: Impact | None) -> str:
    return f" ({impact})" if impact else ""
