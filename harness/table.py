"""The per-rule result table printed at the end of a run (terminal and `refold check`)."""

from __future__ import annotations

from refold.reference import FEATURES, RULES

from .results import RuleResults

__all__ = ["render_rule_table"]

_COLORS = {"failed": "31", "xfailed": "33", "passed": "32", "skipped": "36", "not run": "2"}


def render_rule_table(results: RuleResults, *, color: bool) -> str:
    """Render one row per rule, grouped by feature, with a totals line."""
    lines: list[str] = []
    totals: dict[str, int] = {}
    for feature in FEATURES:
        rules = [r for r in RULES.values() if r.feature == feature]
        if not rules:
            continue
        lines.append(f"{feature}")
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
    summary = ", ".join(f"{totals[s]} {s}" for s in _COLORS if s in totals)
    lines.append(f"rules: {summary}")
    return "\n".join(lines) + "\n"


def _short(text: str, limit: int = 90) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _paint(status: str, *, color: bool) -> str:
    padded = f"{status:<8}"
    return f"\x1b[{_COLORS[status]}m{padded}\x1b[0m" if color else padded
