"""The Markdown summary for a CI job summary ($GITHUB_STEP_SUMMARY).

GitHub renders HTML inside Markdown, so every string from a run is HTML-escaped and
its Markdown punctuation backslash-escaped before it lands in the page; its line breaks
and other whitespace read as one space, and its control characters as `\\u001b`.
"""

from __future__ import annotations

import html
import re
from typing import Any

from ._model import (
    STATUSES,
    diagnosis_line,
    dialect_line,
    first_line,
    projection_line,
    sections,
    survivors_by_function,
)
from ._sanitize import escape_controls
from ._verdicts import headline_items, verdict_words

__all__ = ["escape_markdown", "headline_markdown", "render_markdown"]

_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")
_BLANKS = re.compile(r"[^\S\x0b\x0c\x1c-\x1f\x85]+")
"""Whitespace (tab and line breaks too), read as one space; but the control characters
Python counts as whitespace (VT, FF, U+001C-U+001F, NEL) are escaped instead."""
_LISTED_SURVIVORS = 30


def escape_markdown(text: Any) -> str:
    """`text` safe inside a Markdown table cell or list item: one line, no markup."""
    one_line = _BLANKS.sub(" ", str(text)).strip(" ")
    # quote=False: no attribute value to close here, and `'` must read as itself.
    # Controls last: the backslash of their escape is no Markdown punctuation of the text.
    return escape_controls(_PUNCTUATION.sub(r"\\\1", html.escape(one_line, quote=False)), keep="")


def render_markdown(
    results: dict[str, Any],
    *,
    mutation: dict[str, Any] | None = None,
    coverage: dict[str, Any] | None = None,
) -> str:
    """The summary: totals, a table by feature, the failing rules, score and coverage."""
    totals = results.get("totals", {})
    target = results.get("target", {}).get("name", "")
    head = ", ".join(f"{totals[s]} {s}" for s in STATUSES if totals.get(s))
    lines = [
        f"## refold: {escape_markdown(target)}: {escape_markdown(head or 'no rules')}",
        "",
        f"dialect: {escape_markdown(dialect_line(results))}",
        "",
    ]
    projection = projection_line(results)
    if projection:
        lines += [f"projection: {escape_markdown(projection)}", ""]
    lines += [
        *headline_markdown(results),
        "",
        "| feature | " + " | ".join(STATUSES) + " |",
        "|---|" + "---:|" * len(STATUSES),
    ]
    failing: list[tuple[str, dict[str, Any]]] = []
    blocked: list[tuple[str, dict[str, Any]]] = []
    unjudged: list[tuple[str, dict[str, Any]]] = []
    for heading, _feature, rules in sections(results):
        tally = {s: sum(1 for _, r in rules if r.get("status") == s) for s in STATUSES}
        lines.append(
            f"| {escape_markdown(heading)} | "
            + " | ".join(str(tally[s] or "") for s in STATUSES)
            + " |"
        )
        failing += [(rule_id, r) for rule_id, r in rules if r.get("status") == "failed"]
        blocked += [(rule_id, r) for rule_id, r in rules if r.get("status") == "blocked"]
        unjudged += [(rule_id, r) for rule_id, r in rules if r.get("status") == "not judged"]
    if failing:
        lines += ["", "### Failing rules", ""]
        lines += [
            f"- **{escape_markdown(rule_id)}**{_verdict(r)}: "
            f"{escape_markdown(first_line((r.get('failure') or {}).get('message')))}"
            + _diagnosed(r.get("failure"))
            for rule_id, r in failing
        ]
    if blocked:
        lines += [
            "",
            "### Blocked rules (not judged: another rule's failure stopped their tests)",
            "",
        ]
        lines += [
            f"- **{escape_markdown(rule_id)}**: {escape_markdown(first_line(r.get('reason')))}"
            for rule_id, r in blocked
        ]
    if unjudged:
        lines += [
            "",
            "### Rules not judged (outside the target's stated projection: "
            "neither passed nor failed)",
            "",
            ", ".join(f"**{escape_markdown(rule_id)}**" for rule_id, _ in unjudged),
        ]
    if mutation is not None:
        lines += _mutation_lines(mutation)
    if coverage is not None:
        lines += _coverage_lines(coverage)
    return "\n".join(lines) + "\n"


def headline_markdown(results: dict[str, Any]) -> list[str]:
    """The run's headline (verdicts.md §4): its target's line, then nested bullets."""
    items = headline_items(results)
    return [
        f"**{escape_markdown(items[0][1])}**",
        "",
        *(f"{'  ' * (depth - 1)}- {escape_markdown(text)}" for depth, text in items[1:]),
    ]


def _verdict(rule: dict[str, Any]) -> str:
    words = verdict_words(rule)
    return f" ({escape_markdown(' · '.join(words))})" if words else ""


def _diagnosed(failure: Any) -> str:
    found = diagnosis_line(failure if isinstance(failure, dict) else None)
    return f" ({escape_markdown(found)})" if found else ""


def _mutation_lines(mutation: dict[str, Any]) -> list[str]:
    score = mutation.get("score")
    counts = ", ".join(f"{n} {s}" for s, n in mutation.get("counts", {}).items())
    lines = [
        "",
        f"### Mutation score: {'n/a' if score is None else f'{score:.2f}%'}",
        "",
        escape_markdown(counts),
    ]
    groups = list(survivors_by_function(mutation).items())
    if groups:
        lines += ["", "| function | undetected | rules reaching it |", "|---|---:|---|"]
        for function, mutants in groups[:_LISTED_SURVIVORS]:
            rules = sorted({r for _, m in mutants for r in m.get("rules", [])})
            lines.append(
                f"| {escape_markdown(function)} | {len(mutants)} | "
                f"{escape_markdown(', '.join(rules) or 'none')} |"
            )
        if len(groups) > _LISTED_SURVIVORS:
            lines.append(f"\n{len(groups) - _LISTED_SURVIVORS} more functions in the HTML report")
    return lines


def _coverage_lines(coverage: dict[str, Any]) -> list[str]:
    totals = coverage.get("totals", {})
    return [
        "",
        f"### Coverage of {escape_markdown(coverage.get('package', ''))}: "
        f"{totals.get('lines_percent', 0):.1f}% of lines, "
        f"{totals.get('branches_percent', 0):.1f}% of branches",
    ]
