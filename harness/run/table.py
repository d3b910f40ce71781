"""The per-rule result table printed at the end of a run (terminal and `refold check`).

It lists the run's dialect: the spec's rules first, grouped by the dialect's features;
rules of a registry of the dialect's own (the chat dialect's wire rules of the `sse`
suite) follow in a group of their own, headed with the dialect's `extra_rules_note`, with
their own totals line, so "rules: 49 passed" keeps meaning the spec's rules. A failed
rule whose failure was diagnosed (`refold.verdicts.diagnosis`) has a second line naming the known
fold policies that reproduce the target's output, or "no known policy". A failed rule's
row names the shape it was found on and what it costs (`12 tests · documented · loss: ...`,
verdicts.md §4), read off the rule's record as the results JSON writes it
(`refold.records.report.build_report`), so the table and the JSON never disagree; a rule whose
record has no verdict shows none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

from refold.reference import Rule, RuleRecord, diagnosis_of_record, diagnosis_text

from ..dialects import DEFAULT_DIALECT, DIALECTS, Dialect, dialect_of_rule
from ..records.results import RuleResults
from .console import printable

__all__ = ["WIRE_HEADING", "extra_heading", "id_width", "render_rule_table"]

_COLORS = {
    "failed": "31",
    "xfailed": "33",
    "blocked": "35",
    "not judged": "34",
    "passed": "32",
    "skipped": "36",
    "not run": "2",
}


def extra_heading(feature: str, dialect: Dialect) -> str:
    """The heading of a group of `dialect`'s rules that are not its spec's."""
    return f"{feature} ({dialect.extra_rules_note})"


WIRE_HEADING = extra_heading("sse", DIALECTS[DEFAULT_DIALECT])
"""The heading of the chat wire rules' group, in the table and in `refold rules`."""


def render_rule_table(results: RuleResults, *, color: bool, dialect: Dialect | None = None) -> str:
    """Render one row per rule of `dialect` (by default, that of the recorded rules),
    grouped by feature, with a totals line per registry."""
    dialect = dialect or _recorded_dialect(results)
    records = rule_records(results, dialect)
    lines: list[str] = []
    totals: dict[str, int] = {}
    width = id_width(list(dialect.rules.values()))
    spec = [r for r in dialect.rules.values() if r.id in dialect.spec_rules]
    for feature, rules in _by_feature(spec, dialect):
        lines.append(feature)
        lines += _rows(rules, results, records, totals, color=color, width=width)
    lines.append(f"rules: {_summary(totals)}")
    extra = [r for r in dialect.rules.values() if r.id not in dialect.spec_rules]
    if extra:
        wire_totals: dict[str, int] = {}
        for feature, rules in _by_feature(extra, dialect):
            lines.append(extra_heading(feature, dialect))
            lines += _rows(rules, results, records, wire_totals, color=color, width=width)
        lines.append(f"wire rules: {_summary(wire_totals)}")
    return "\n".join(lines) + "\n"


def rule_records(results: RuleResults, dialect: Dialect) -> Mapping[str, RuleRecord]:
    """The rules' records as the results JSON holds them (`refold.records.report.build_report`)."""
    from ..records.report import build_report

    records: Mapping[str, RuleRecord] = build_report(
        results,
        target=None,
        started=datetime.now(UTC),
        duration_seconds=0.0,
        hypothesis_profile="",
        dialect=dialect,
    )["rules"]
    return records


def _recorded_dialect(results: RuleResults) -> Dialect:
    # A run's tests are all of one dialect, and a rule id names its dialect.
    found = (dialect_of_rule(rule_id) for rule_id in results.by_rule)
    return next((one for one in found if one is not None), DIALECTS[DEFAULT_DIALECT])


def _by_feature(rules: list[Rule], dialect: Dialect) -> list[tuple[str, list[Rule]]]:
    """The rules grouped by feature, in the dialect's feature order (then any other)."""
    order = [*dialect.features, *dict.fromkeys(r.feature for r in rules)]
    grouped = [(f, [r for r in rules if r.feature == f]) for f in dict.fromkeys(order)]
    return [(feature, group) for feature, group in grouped if group]


def _rows(
    rules: Iterable[Rule],
    results: RuleResults,
    records: Mapping[str, RuleRecord],
    totals: dict[str, int],
    *,
    color: bool,
    width: int,
) -> list[str]:
    """One line per rule; counts each status into `totals`."""
    lines: list[str] = []
    for rule in rules:
        outcome = results.by_rule.get(rule.id)
        status = outcome.status if outcome else "not run"
        totals[status] = totals.get(status, 0) + 1
        detail = ""
        if outcome is not None:
            detail = f"{outcome.tests} test{'s' * (outcome.tests != 1)}"
            detail += "".join(f" · {word}" for word in _verdict(records.get(rule.id)))
            if outcome.reason:
                detail += f": {_short(outcome.reason)}"
        lines.append(f"  {rule.id:<{width}} {_paint(status, color=color):<9} {detail}".rstrip())
        found = diagnosis_of_record(outcome.failure) if status == "failed" and outcome else None
        if found is not None:
            lines.append(f"  {'':<{width}} {'':<9} diagnosis: {_short(diagnosis_text(found))}")
    return lines


def _verdict(record: RuleRecord | None) -> list[str]:
    """["documented", "loss"]: a failed rule's recorded shape and impact, each if recorded."""
    if record is None or record["status"] != "failed":
        return []
    return [printable(str(record[key])) for key in ("found_on", "impact") if record.get(key)]


def id_width(rules: list[Rule]) -> int:
    """The id column's width: the longest id, at least 20 (so short ids line up as before)."""
    return max([20, *(len(rule.id) for rule in rules)])


def _summary(totals: dict[str, int]) -> str:
    return ", ".join(f"{totals[s]} {s}" for s in _COLORS if s in totals)


def _short(text: str, limit: int = 90) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    line = line if len(line) <= limit else line[: limit - 3] + "..."
    return printable(line)  # a reason can quote a target's control characters


def _paint(status: str, *, color: bool) -> str:
    padded = f"{status:<8}"  # "not judged" overruns by two: the rows stay as they were
    return f"\x1b[{_COLORS[status]}m{padded}\x1b[0m" if color else padded
