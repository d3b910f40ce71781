"""The HTML report: one self-contained page per run (inline CSS and SVG, no scripts).

Every string that came from a run (messages, chunks, rule reasons, diffs, names) goes
through `html.escape` exactly once, here, at the point it enters the markup, its control
characters written visibly as `\\u001b` (`html_text`; in attribute values newline and
tab too, `html_attribute`). Only the rule
statements of the registries get markup of their own: their `code` spans become <code>.
"""

from __future__ import annotations

import json
import re
import shlex
from importlib.resources import files
from typing import Any

from ._model import (
    STATUSES,
    diagnosis_line,
    dialect_line,
    distinct_failures,
    first_line,
    items_of,
    projection_line,
    sections,
    survivors_by_function,
)
from ._sanitize import escape_controls, html_attribute, html_text
from ._tracebacks import tidy_tracebacks
from ._verdicts import departure_note, headline_items, verdict_words

__all__ = ["headline_html", "render_html"]


_CODE_SPAN = re.compile(r"`([^`]+)`")
_LINE_BREAKS = {ord(c): f"\\u{ord(c):04x}" for c in "\x85\u2028\u2029"}
"""Line breaks JSON leaves raw; escaped, each chunk keeps one line (as in the terminal)."""


def _e(value: Any) -> str:
    return html_text(value)


def _a(value: Any) -> str:
    return html_attribute(value)


def _statement(text: str) -> str:
    """A rule statement, escaped, with its Markdown `code` spans as <code>."""
    parts = _CODE_SPAN.split(text)
    return "".join(
        f"<code>{_e(part)}</code>" if odd else _e(part)
        for odd, part in ((i % 2 == 1, p) for i, p in enumerate(parts))
    )


def _json_line(value: Any, separators: tuple[str, str] = (", ", ": ")) -> str:
    # JSON escapes C0 itself; DEL and C1 as `\u009b`, the form the harness's message has.
    return escape_controls(
        json.dumps(value, ensure_ascii=False, separators=separators).translate(_LINE_BREAKS)
    )


def render_html(
    results: dict[str, Any],
    *,
    mutation: dict[str, Any] | None = None,
    coverage: dict[str, Any] | None = None,
    trend: str = "",
) -> str:
    """The page: header and totals, the rule table, failing streams, mutation, coverage,
    and the trend (an SVG from `trend_svg`, already escaped)."""
    target = results.get("target", {})
    css = files("refold.reports").joinpath("templates/report.css").read_text(encoding="utf-8")
    body = [_header(results), headline_html(results), _rule_table(results), _failures(results)]
    if mutation is not None:
        body.append(_mutation(mutation))
    if coverage is not None:
        body.append(_coverage(coverage))
    if trend:
        body.append(f"<h2>Trend</h2>\n{trend}")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">"
        f"<title>refold report: {_e(target.get('name', ''))}</title>"
        f"<style>{css}</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def _header(results: dict[str, Any]) -> str:
    target = results.get("target", {})
    totals = results.get("totals", {})
    versions = ", ".join(
        f"{k} {v}" for k, v in results.get("versions", {}).items() if k != "refold"
    )  # named once, as "refold X.Y.Z"
    spans = "".join(
        f'<span class="{_css(s)}">{totals[s]} {_e(s)}</span>' for s in STATUSES if totals.get(s)
    )
    projection = projection_line(results)
    projected = f"projection: {_e(projection)}<br>" if projection else ""
    return (
        f"<h1>refold: {_e(target.get('name', ''))}</h1>"
        f'<p class="meta">{_e(target.get("description", ""))}<br>'
        f"dialect: {_e(dialect_line(results))}<br>{projected}"
        f"features: {_e(', '.join(target.get('features', [])))}<br>"
        f"started {_e(results.get('started', ''))}, "
        f"{float(results.get('duration_seconds') or 0):.1f} s, Hypothesis profile "
        f"{_e(results.get('hypothesis_profile', ''))}; refold "
        f"{_e(results.get('refold_version', ''))}; {_e(versions)}</p>"
        f'<p class="totals">{spans}</p>'
    )


def _css(status: Any) -> str:
    return str(status).replace(" ", "-") if status in STATUSES else "skipped"


def _rule_table(results: dict[str, Any]) -> str:
    rows = [
        f"<h2>Rules of {_e(dialect_line(results))} by feature</h2><table><thead><tr>"
        '<th>rule</th><th>status</th><th>found on · impact</th><th class="num">tests</th>'
        "<th>statement / reason</th></tr></thead><tbody>"
    ]
    for heading, _feature, rules in sections(results):
        rows.append(f'<tr class="feature"><td colspan="5">{_e(heading)}</td></tr>')
        for rule_id, rule in rules:
            status = rule.get("status", "not run")
            note = _statement(str(rule.get("statement", "")))
            if rule.get("reason"):
                note = f"{note} ({_e(rule['reason'])})"
            if status == "failed":
                link = f'<a href="#fail-{_a(rule_id)}">{_e(rule_id)}</a>'
            else:
                link = _e(rule_id)
            rows.append(
                f'<tr><td>{link}</td><td class="status {_css(status)}">{_e(status)}</td>'
                f'<td class="verdict">{_e(" · ".join(verdict_words(rule)))}</td>'
                f'<td class="num">{int(rule.get("tests") or 0)}</td>'
                f"<td>{note}</td></tr>"
            )
    rows.append("</tbody></table>")
    return "".join(rows)


def _failures(results: dict[str, Any]) -> str:
    groups = distinct_failures(results)
    if not groups:
        return "<h2>Failing streams</h2><p>No rule failed.</p>"
    parts = ["<h2>Failing streams</h2>"]
    for group in groups:
        parts.append(_failure_block(group, results))
    return "".join(parts)


def _failure_block(group: list[tuple[str, dict[str, Any]]], results: dict[str, Any]) -> str:
    first_id, rule = group[0]
    failure = rule.get("failure") or {}
    items = items_of(results)
    names = ", ".join(
        f"{_e(rule_id)} <small>({_e(r.get('feature', ''))})</small>" + _verdict_span(r)
        for rule_id, r in group
    )
    anchors = "".join(f'<span id="fail-{_a(rule_id)}"></span>' for rule_id, _ in group[1:])
    message = tidy_tracebacks(str(failure.get("message") or rule.get("reason") or ""))
    parts = [f'<div class="failure" id="fail-{_a(first_id)}">{anchors}<h3>{names}</h3>']
    parts.append(_stream_shape(failure, results))
    if diagnosis_line(failure):
        parts.append(f'<p class="diagnosis">{_e(diagnosis_line(failure))}</p>')
    parts.append(f"<pre>{_e(message)}</pre>")
    if failure.get("pointer") is not None:
        parts.append(f"<p>at <code>{_e(failure['pointer'])}</code></p>")
    if failure.get("chunks") and not _shown_in(failure):
        lines = "\n".join(_json_line(c) for c in failure["chunks"])
        parts.append(
            f"<p>{_e(items)} ({len(failure['chunks'])}), one JSON object a line:</p>"
            f"<pre>{_e(lines)}</pre>"
        )
    for key in ("expected", "received"):
        if failure.get(key) is not None:
            text = json.dumps(failure[key], ensure_ascii=False, indent=1)
            parts.append(f"<details><summary>{key}</summary><pre>{_e(text)}</pre></details>")
    if failure.get("replay_file"):
        command = shlex.join(["refold", "replay", str(failure["replay_file"])])
        parts.append(f"<p>replay: <code>{_e(command)}</code></p>")
    parts.append("</div>")
    return "".join(parts)


def _verdict_span(rule: dict[str, Any]) -> str:
    words = verdict_words(rule)
    return f' <span class="verdict">· {_e(" · ".join(words))}</span>' if words else ""


def _stream_shape(failure: dict[str, Any], results: dict[str, Any]) -> str:
    """The failing stream's recorded shape and each departure it carries, with what the
    results say of it (its summary and who sends it); "" when no shape is recorded."""
    shape = failure.get("shape")
    if not isinstance(shape, str):
        return ""
    ids = [str(d) for d in failure.get("departures") or [] if isinstance(d, str)]
    notes = "".join(f"<li>{_departure(results, d)}</li>" for d in ids)
    return f'<p class="shape">stream: {_e(shape)}' + (
        f"; departures:</p><ul>{notes}</ul>" if notes else "</p>"
    )


def _departure(results: dict[str, Any], departure_id: str) -> str:
    note = departure_note(results, departure_id)
    provenance = [str(p) for p in note.get("provenance") or [] if isinstance(p, str)]
    sent = f" <small>(sent by: {_e('; '.join(provenance))})</small>" if provenance else ""
    shape = note.get("shape")
    kind = f" [{_e(shape)}]" if isinstance(shape, str) else ""
    summary = note.get("summary")
    said = f" {_e(summary)}" if isinstance(summary, str) and summary else ""
    return f"<code>{_e(departure_id)}</code>{said}{kind}{sent}"


def headline_html(results: dict[str, Any]) -> str:
    """The run's headline (verdicts.md §4) as nested lists: the rules failing on documented
    streams by impact, then those failing only on observed departures, each departure
    named, then those failing only on synthetic ones."""
    items = headline_items(results)
    return (
        f'<section class="headline"><p><b>{_e(items[0][1])}</b></p>'
        f"{_nested_list(items[1:])}</section>"
    )


def _nested_list(items: list[tuple[int, str]]) -> str:
    """Items at depths 1, 2, ... as nested <ul>, a deeper list inside its parent's <li>."""
    parts: list[str] = []
    depth = 0
    for level, text in items:
        if level > depth:
            parts.append("<ul>" * (level - depth))
        else:
            parts.append("</li>" + "</ul></li>" * (depth - level))
        parts.append(f"<li>{_e(text)}")
        depth = level
    if depth:
        parts.append("</li>" + "</ul></li>" * (depth - 1) + "</ul>")
    return "".join(parts)


def _shown_in(failure: dict[str, Any]) -> bool:
    # The harness's message usually lists the chunks already (compact JSON lines).
    first = _json_line(failure["chunks"][0], separators=(",", ":"))
    return first in str(failure.get("message") or "")


def _mutation(mutation: dict[str, Any]) -> str:
    score = mutation.get("score")
    width = 0.0 if score is None else max(0.0, min(100.0, float(score)))
    counts = ", ".join(f"{n} {s}" for s, n in mutation.get("counts", {}).items())
    parts = [
        f'<h2>Mutation score</h2><p><span class="score">'
        f"{'n/a' if score is None else f'{score:.2f}%'}</span> "
        f'<span class="bar"><i style="width:{width:.1f}%"></i></span></p>'
        f'<p class="meta">{_e(counts)}; target {_e(mutation.get("target", ""))}, '
        f"{_e(mutation.get('duration_seconds', ''))} s, mutmut "
        f"{_e(mutation.get('mutmut_version', ''))}</p>"
    ]
    for function, mutants in survivors_by_function(mutation).items():
        rules = sorted({r for _, m in mutants for r in m.get("rules", [])})
        parts.append(
            f'<h3>{_e(function)}</h3><p class="meta">reached by rules: '
            f"{_e(', '.join(rules) or 'none')}</p>"
        )
        for name, mutant in mutants:
            parts.append(
                f"<details open><summary>{_e(mutant.get('status', ''))}: "
                f"{_e(name.rpartition('.')[2])}</summary>"
                f"<pre>{_e(mutant.get('diff') or '')}</pre></details>"
            )
    equivalent = [
        (n, m) for n, m in mutation.get("mutants", {}).items() if m.get("status") == "equivalent"
    ]
    if equivalent:
        parts.append("<h3>Equivalent mutants (not scored)</h3><table><tbody>")
        parts += [
            f"<tr><td>{_e(n)}</td><td>{_e(m.get('reason', ''))}</td></tr>" for n, m in equivalent
        ]
        parts.append("</tbody></table>")
    return "".join(parts)


def _coverage(coverage: dict[str, Any]) -> str:
    totals = coverage.get("totals", {})
    rows = [
        f"<h2>Coverage of {_e(coverage.get('package', ''))}</h2>"
        f"<p>{totals.get('lines_percent', 0):.1f}% of lines, "
        f"{totals.get('branches_percent', 0):.1f}% of branches</p><table><thead><tr>"
        '<th>file</th><th class="num">lines</th><th class="num">branches</th>'
        "<th>missing lines</th></tr></thead><tbody>"
    ]
    for path, data in coverage.get("files", {}).items():
        missing = ", ".join(str(n) for n in data.get("missing_lines", []))
        rows.append(
            f'<tr><td>{_e(path)}</td><td class="num">{data.get("lines_percent", 0):.1f}%'
            f'</td><td class="num">{data.get("branches_percent", 0):.1f}%</td>'
            f"<td>{_e(first_line(missing, 120))}</td></tr>"
        )
    rows.append("</tbody></table>")
    by_rule = coverage.get("lines_by_rule", {})
    if by_rule:
        rows.append("<details><summary>lines reached by each rule</summary><table><tbody>")
        for rule_id, per_file in by_rule.items():
            count = sum(len(lines) for lines in per_file.values())
            rows.append(f'<tr><td>{_e(rule_id)}</td><td class="num">{count}</td></tr>')
        rows.append("</tbody></table></details>")
    return "".join(rows)
