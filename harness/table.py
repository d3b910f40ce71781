"""The per-rule result table printed at the end of a run (terminal and `refold check`).

The spec's rules come first, grouped by feature; the wire rules of the `sse` suite follow
in a group of their own, headed as not part of chat-fold.md, with their own totals line,
so "rules: 49 passed" keeps meaning the spec's rules.
"""

from __future__ import annotations

from collections.abc import Iterable

from refold.reference import FEATURES, RULES, SSE_RULES, SSE_RULES_NOTE, Rule

from .console import printable
from .results import RuleResults

__all__ = ["WIRE_HEADING", "render_rule_table"]

_COLORS = {"failed": "31", "xfailed": "33", "blocked": "35", "passed": "32", "skipped": "36",
           "not run": "2"}

WIRE_HEADING = f"sse ({SSE_RULES_NOTE})"
"""The heading of the wire rules' group, in the table and in `refold rules`."""


def render_rule_table(results: RuleResults, *, color: bool) -> str:
    """Render one row per rule, grouped by feature, with a totals line per registry."""
    lines: list[str] = []
    totals: dict[str, int] = {}
    for feature in FEATURES:
        rules = [r for r in RULES.values() if r.feature == feature]
        if rules:
            lines.append(feature)
            lines += _rows(rules, results, totals, color=color)
    lines.append(f"rules: {_summary(totals)}")
    wire_totals: dict[str, int] = {}
    lines.append(WIRE_HEADING)
    lines += _rows(SSE_RULES.values(), results, wire_totals, color=color)
    lines.append(f"wire rules: {_summary(wire_totals)}")
    return "\n".join(lines) + "\n"


def _rows(rules: Iterable[Rule], results: RuleResults, totals: dict[str, int], *,
          color: bool) -> list[str]:
    """One line per rule; counts each status into `totals`."""
    lines: list[str] = []
    for rule in rules:
        outcome = results.by_rule.get(rule.id)
        status = outcome.status if outcome else "not run"
        totals[status] = totals.get(status, 0) + 1
        detail = ""
        if outcome is not None:
            detail = f"{outcome.tests} test{'s' * (outcome.tests != 1)}"
            if outcome.reason:
                detail += f": {_short(outcome.reason)}"
        lines.append(f"  {rule.id:<20} {_paint(status, color=color):<9} {detail}".rstrip())
    return lines


def _summary(totals: dict[str, int]) -> str:
    return ", ".join(f"{totals[s]} {s}" for s in _COLORS if s in totals)


def _short(text: str, limit: int = 90) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    line = line if len(line) <= limit else line[: limit - 3] + "..."
    return printable(line)  # a reason can quote a target's control characters


def _paint(status: str, *, color: bool) -> str:
    padded = f"{status:<8}"
    return f"\x1b[{_COLORS[status]}m{padded}\x1b[0m" if color else padded
