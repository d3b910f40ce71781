"""The conformance matrix: many runs side by side, as wpt.fyi shows browsers.

Rules are rows, targets are columns, grouped by dialect and then by the dialect's
features (a run only sits beside runs of its own dialect), each cell coloured by the
rule's status in that run, with per-feature totals. A failed cell links to its failing
stream and diagnosis, further down the same page: the HTML page is self-contained (inline
CSS, no scripts, no links out), so it can be attached to a release or committed. The
Markdown form has the same tables for a CI job summary.

Input is the results JSON of `refold check` (one per target); it is scrubbed and bounded
like every report's input, and every string from a run is escaped where it lands.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from refold.reference import diagnosis_of_record, diagnosis_text, dialect_record

from ._html import headline_html
from ._markdown import escape_markdown, headline_markdown
from ._model import (
    STATUSES,
    by_feature,
    dialect_line,
    distinct_failures,
    failure_text,
    first_line,
    items_of,
)
from ._sanitize import html_attribute, html_text, safe_input
from ._verdicts import verdict_words

__all__ = ["Column", "columns_by_dialect", "render_matrix_html", "render_matrix_markdown"]

_SHORT = {
    "failed": "fail",
    "xfailed": "xfail",
    "blocked": "blocked",
    "not judged": "unjudged",
    "passed": "pass",
    "skipped": "skip",
    "not run": "—",
}
"""What a cell says; a status without a short form is shown whole."""

_FAILURE_CHARS = 1200
"""How much of a failure the matrix shows: enough for the message and a short stream; the
run's own report has the rest."""

Column = tuple[str, dict[str, Any]]
"""One run as a column: its anchor id (unique in the page) and its results."""


def columns_by_dialect(runs: list[dict[str, Any]]) -> dict[str, list[Column]]:
    """The runs grouped by dialect name, in the order given, each with a unique anchor."""
    grouped: dict[str, list[Column]] = {}
    for number, results in enumerate(runs, start=1):
        name = dialect_record(results)["name"]
        grouped.setdefault(name, []).append((f"run{number}", results))
    return grouped


def _rows(columns: list[Column]) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Every rule any run of the dialect names, by feature, in the order of the run that
    names the most rules (the others' extra rules after)."""
    ordered = sorted((results for _, results in columns), key=lambda r: -len(r.get("rules", {})))
    rows: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    seen: set[str] = set()
    for results in ordered:
        for feature, rules in by_feature(results).items():
            for rule_id, rule in rules:
                if rule_id not in seen:
                    seen.add(rule_id)
                    rows.setdefault(feature, []).append((rule_id, rule))
    return rows


def _status(results: dict[str, Any], rule_id: str) -> str:
    rule = results.get("rules", {}).get(rule_id)
    status = str(rule.get("status", "not run")) if isinstance(rule, dict) else "not run"
    return status if status in STATUSES else "not run"


def _cell_text(results: dict[str, Any], rule_id: str) -> str:
    """What a cell says: the short status; for a failed rule with a recorded verdict, its
    shape and impact too (`fail · doc · loss`)."""
    status = _status(results, rule_id)
    words = [_SHORT.get(status, status)]
    if status == "failed":
        words += verdict_words(results["rules"][rule_id], short=True)
    return " · ".join(words)


def _target(results: dict[str, Any]) -> tuple[str, str]:
    target = results.get("target", {})
    return str(target.get("name", "")), str(target.get("description", ""))


def _diagnosis(rule: dict[str, Any]) -> str:
    """The failure's diagnosis as one sentence, when the run recorded one
    (`refold.verdicts.diagnosis`:
    "matches policy *P*, as LIB does", or "no known policy")."""
    found = diagnosis_of_record(rule.get("failure"))
    return "" if found is None else diagnosis_text(found)


# --- HTML -------------------------------------------------------------------------------


def _e(value: Any) -> str:
    return html_text(value)


def _a(value: Any) -> str:
    return html_attribute(value)


def _css(status: str) -> str:
    return status.replace(" ", "-")


def render_matrix_html(runs: list[dict[str, Any]]) -> str:
    """The page: per dialect, a table of rules by targets and its failing streams."""
    runs = [safe_input(results) for results in runs]
    css = files("refold.reports").joinpath("templates/report.css").read_text(encoding="utf-8")
    body = [
        "<h1>refold: conformance matrix</h1>",
        f'<p class="meta">{len(runs)} run{"s" * (len(runs) != 1)}; a cell is the '
        "rule's status in that target's run; a failed cell links to its failing stream."
        "</p>",
    ]
    grouped = columns_by_dialect(runs)
    body.append("<h2>Headline per target</h2>")
    body += [headline_html(results) for columns in grouped.values() for _, results in columns]
    for dialect_name, columns in grouped.items():
        body.append(_dialect_table(dialect_name, columns))
        body.append(_failures(columns))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">"
        "<title>refold: conformance matrix</title>"
        f"<style>{css}{_MATRIX_CSS}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


_MATRIX_CSS = """
table.matrix td.cell{text-align:center;white-space:nowrap;border:1px solid #fff}
table.matrix td.cell.failed{background:#fde2e1}table.matrix td.cell.passed{background:#dcf3e0}
table.matrix td.cell.xfailed{background:#fff1d6}table.matrix td.cell.blocked{background:#ece3fb}
table.matrix td.cell.not-judged{background:#ddeafb;font-style:italic}
table.matrix td.cell.skipped,table.matrix td.cell.not-run{background:#f1f1f1}
table.matrix th.target{writing-mode:vertical-rl;transform:rotate(180deg);text-align:left;
  max-height:16em;white-space:nowrap}
table.matrix tr.totals td{font-size:.85em;color:#444;text-align:center}
"""


def _dialect_table(dialect_name: str, columns: list[Column]) -> str:
    line = dialect_line(columns[0][1])
    heads = "".join(
        f'<th class="target" title="{_a(_target(r)[1])}">{_e(_target(r)[0])}</th>'
        for _, r in columns
    )
    parts = [
        f'<h2 id="{_a(dialect_name)}">{_e(line)}</h2>'
        f'<table class="matrix"><thead><tr><th>rule</th>{heads}</tr></thead><tbody>'
    ]
    for feature, rules in _rows(columns).items():
        parts.append(
            f'<tr class="feature"><td colspan="{len(columns) + 1}">{_e(feature)}</td></tr>'
        )
        for rule_id, rule in rules:
            cells = "".join(_cell(anchor, results, rule_id) for anchor, results in columns)
            parts.append(
                f'<tr><td title="{_a(rule.get("statement", ""))}">{_e(rule_id)}</td>{cells}</tr>'
            )
        parts.append(_totals_row(columns, [rule_id for rule_id, _ in rules]))
    parts.append("</tbody></table>")
    return "".join(parts)


def _cell(anchor: str, results: dict[str, Any], rule_id: str) -> str:
    status = _status(results, rule_id)
    text = _e(_cell_text(results, rule_id))
    if status == "failed":
        text = f'<a href="#{_a(anchor)}-{_a(rule_id)}">{text}</a>'
    return f'<td class="cell status {_css(status)}" title="{_a(status)}">{text}</td>'


def _totals_row(columns: list[Column], rule_ids: list[str]) -> str:
    cells = []
    for _, results in columns:
        passed = sum(1 for rule_id in rule_ids if _status(results, rule_id) == "passed")
        cells.append(f"<td>{passed}/{len(rule_ids)}</td>")
    return f'<tr class="totals"><td>passed</td>{"".join(cells)}</tr>'


def _failures(columns: list[Column]) -> str:
    """Per run, its failing streams; rules that failed on the same failure share a block
    (one failing example often breaks several rules), each rule with its own anchor."""
    parts: list[str] = []
    for anchor, results in columns:
        name, description = _target(results)
        groups = distinct_failures(results)
        if groups:
            parts.append(
                f'<h3>{_e(name)}: failing streams</h3><p class="meta">{_e(description)}</p>'
            )
            parts += [_failure_block(anchor, group, items_of(results)) for group in groups]
    return "".join(parts)


def _failure_block(anchor: str, group: list[tuple[str, dict[str, Any]]], items: str) -> str:
    rule = group[0][1]
    text = _bounded(failure_text(rule.get("failure") or {"message": rule.get("reason")}, items))
    anchors = "".join(f'<span id="{_a(anchor)}-{_a(rule_id)}"></span>' for rule_id, _ in group)
    names = ", ".join(
        f"{_e(rule_id)} <small>({_e(r.get('feature', ''))})</small>" for rule_id, r in group
    )
    diagnosis = _diagnosis(rule)
    return (
        f'<div class="failure">{anchors}<h4>{names}</h4>'
        + (f"<p>diagnosis: {_e(diagnosis)}</p>" if diagnosis else "")
        + f"<details><summary>{_e(first_line(text))}</summary><pre>{_e(text)}</pre>"
        "</details></div>"
    )


def _bounded(text: str) -> str:
    if len(text) <= _FAILURE_CHARS:
        return text
    return (
        f"{text[:_FAILURE_CHARS]}\n… ({len(text) - _FAILURE_CHARS} more characters: "
        "the run's own report.html shows the whole failure)"
    )


# --- Markdown ---------------------------------------------------------------------------


def render_matrix_markdown(runs: list[dict[str, Any]]) -> str:
    """The same tables in Markdown: per dialect, rules by targets, totals per feature."""
    runs = [safe_input(results) for results in runs]
    lines = ["## refold: conformance matrix", "", "### Headline per target", ""]
    grouped = columns_by_dialect(runs)
    for columns in grouped.values():
        for _, results in columns:
            lines += [*headline_markdown(results), ""]
    for _dialect_name, columns in grouped.items():
        lines += [
            f"### {escape_markdown(dialect_line(columns[0][1]))}",
            "",
            "| rule | " + " | ".join(escape_markdown(_target(r)[0]) for _, r in columns) + " |",
            "|---|" + "---|" * len(columns),
        ]
        for feature, rules in _rows(columns).items():
            lines.append(f"| **{escape_markdown(feature)}** |" + " |" * len(columns))
            for rule_id, _rule in rules:
                lines.append(
                    f"| {escape_markdown(rule_id)} | "
                    + " | ".join(escape_markdown(_cell_text(r, rule_id)) for _, r in columns)
                    + " |"
                )
            ids = [rule_id for rule_id, _ in rules]
            lines.append(
                "| passed | "
                + " | ".join(
                    f"{sum(1 for i in ids if _status(r, i) == 'passed')}/{len(ids)}"
                    for _, r in columns
                )
                + " |"
            )
        lines.append("")
    return "\n".join(lines)
