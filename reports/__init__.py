"""Reports of a run (refold.reports): HTML, JSON, JUnit XML, Markdown and the trend.

They render the results JSON the harness writes (`refold check --report-dir`), and
optionally the mutation result of `refold mutate` and the coverage result of
`refold coverage`. Reports only render: every document is scrubbed of credentials
and `opaque`/`payload` values and bounded in size before it is rendered, every rendered
document is scrubbed again as text, every string from a stream is escaped for the format
it lands in, and no JSON file holds a bare NaN or Infinity. Each report and the matrix
open with a headline per target (`headline_lines`): the rules failing on documented
streams by impact, then those failing only on observed departures, then only on synthetic
ones; a failed rule shows where it was found and what it costs (`verdict_words`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from refold.reference import json_text

from ._html import render_html
from ._junit import render_junit
from ._markdown import escape_markdown, render_markdown
from ._matrix import render_matrix_html, render_matrix_markdown
from ._model import dialect_line
from ._sanitize import NOT_KEPT, REDACTED, safe_input, scrub, scrub_document, scrub_text
from ._trend import history_entry, load_history, of_dialect, record_history, trend_svg
from ._upstream import UpstreamReports, stream_literal, upstream_reports
from ._verdicts import headline_lines, verdict_words

__all__ = [
    "NOT_KEPT",
    "REDACTED",
    "UpstreamReports",
    "escape_markdown",
    "headline_lines",
    "history_entry",
    "load_history",
    "record_history",
    "render_html",
    "render_junit",
    "render_markdown",
    "render_matrix_html",
    "render_matrix_markdown",
    "scrub",
    "scrub_text",
    "stream_literal",
    "trend_svg",
    "upstream_reports",
    "verdict_words",
    "write_all",
    "write_matrix",
    "write_upstream",
]


def write_all(
    results: dict[str, Any],
    directory: Path,
    *,
    mutation: dict[str, Any] | None = None,
    coverage: dict[str, Any] | None = None,
    history: Path | None = None,
) -> list[Path]:
    """Write every report of one run into `directory`; return the files written.

    report.html, results.json, junit.xml and summary.md always; mutation.json and
    coverage.json when given; trend.svg when `history` names a folder of earlier runs
    (this run is drawn last but not recorded: see `record_history`), with the earlier
    runs of this run's dialect only.
    """
    results = safe_input(results)
    mutation = None if mutation is None else safe_input(mutation)
    coverage = None if coverage is None else safe_input(coverage)
    trend = ""
    if history is not None:
        entry = history_entry(results, mutation)
        trend = trend_svg(
            [*of_dialect(load_history(history), entry["dialect"]), entry],
            dialect=dialect_line(results),
        )
    directory.mkdir(parents=True, exist_ok=True)
    documents: dict[str, str] = {
        "report.html": render_html(results, mutation=mutation, coverage=coverage, trend=trend),
        "results.json": _json(results),
        "junit.xml": render_junit(results),
        "summary.md": render_markdown(results, mutation=mutation, coverage=coverage),
    }
    if mutation is not None:
        documents["mutation.json"] = _json(mutation)
    if coverage is not None:
        documents["coverage.json"] = _json(coverage)
    if trend:
        documents["trend.svg"] = trend + "\n"
    written = []
    for name, text in documents.items():
        path = directory / name
        path.write_text(scrub_document(text), encoding="utf-8")
        written.append(path)
    return written


def write_matrix(runs: list[dict[str, Any]], directory: Path) -> list[Path]:
    """Write the conformance matrix of `runs` (results documents, one per target) into
    `directory`: matrix.html and matrix.md; return the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in (
        ("matrix.html", render_matrix_html(runs)),
        ("matrix.md", render_matrix_markdown(runs)),
    ):
        path = directory / name
        path.write_text(scrub_document(text), encoding="utf-8")
        written.append(path)
    return written


def write_upstream(results: dict[str, Any], directory: Path) -> tuple[list[Path], str]:
    """Write the upstream bug reports of `results` (`upstream_reports`) into `directory`;
    return the files written and the summary of what was filed and what was not."""
    found = upstream_reports(results)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in found.reports.items():
        path = directory / name
        path.write_text(scrub_document(text), encoding="utf-8")
        written.append(path)
    return written, found.summary()


def _json(document: dict[str, Any]) -> str:
    return json_text(document)
