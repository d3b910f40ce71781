"""The history of runs and its trend plot: mutation score and failing rules over time.

A history folder holds one small JSON entry per run (`record_history`), naming the run's
dialect (an entry without one is
`UNNAMED_DIALECT`'s); `trend_svg` draws them as an
inline SVG with no dependency, so the HTML page stays self-contained. Failing rules of
different dialects do not compare: a report draws the runs of its own dialect
(`of_dialect`) and names it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from refold.reference import dialect_record, json_text

from ._sanitize import html_attribute, html_text

__all__ = ["history_entry", "load_history", "of_dialect", "record_history", "trend_svg"]

_WIDTH, _HEIGHT, _PAD = 640, 220, 40


def history_entry(results: dict[str, Any], mutation: dict[str, Any] | None) -> dict[str, Any]:
    """The part of a run the trend needs."""
    return {
        "started": str(results.get("started", "")),
        "target": str(results.get("target", {}).get("name", "")),
        "dialect": dialect_record(results)["name"],
        "failed_rules": int(results.get("totals", {}).get("failed", 0)),
        "score": None if mutation is None else mutation.get("score"),
    }


def record_history(entry: dict[str, Any], folder: Path) -> Path:
    """Add `entry` to the history folder; the file name sorts by start time."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = "".join(c if c.isalnum() else "-" for c in entry["started"]) or "unknown"
    path = folder / f"run-{stamp}.json"
    path.write_text(json_text(entry), encoding="utf-8")
    return path


def load_history(folder: Path) -> list[dict[str, Any]]:
    """The entries of a history folder, oldest first (unreadable files are skipped)."""
    entries = []
    for path in sorted(folder.glob("run-*.json")) if folder.is_dir() else []:
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(entry, dict) and "started" in entry:
            entries.append(entry)
    return sorted(entries, key=lambda e: str(e["started"]))


def of_dialect(entries: Sequence[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The entries of runs of the dialect `name` (an entry naming none: `UNNAMED_DIALECT`'s)."""
    return [e for e in entries if dialect_record(e)["name"] == name]


def trend_svg(entries: Sequence[dict[str, Any]], *, dialect: str = "") -> str:
    """A line plot of the score (0-100 %, left axis) and failing rules (right axis) of the
    runs of one `dialect` (as the reports name it, shown beside the legend)."""
    if not entries:
        return ""
    failures = [int(e.get("failed_rules") or 0) for e in entries]
    most = max(max(failures), 1)
    scores = [e.get("score") for e in entries]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {_HEIGHT}" '
        f'width="{_WIDTH}" height="{_HEIGHT}" role="img" '
        f'aria-label="mutation score and failing rules per run{_of(dialect)}" '
        'class="trend">',
        *_axes(most),
    ]
    if dialect:
        parts.append(f'<text x="{_PAD + 300}" y="14" class="legend">{html_text(dialect)}</text>')
    parts.append(_polyline([None if s is None else float(s) / 100 for s in scores], "score"))
    parts.append(_polyline([f / most for f in failures], "failures"))
    last = len(entries) - 1
    for i in sorted({0, last}):
        anchor = "end" if i == last and last else "start"
        parts.append(
            f'<text x="{_x(i, len(entries)):.1f}" y="{_HEIGHT - 8}" class="tick" '
            f'text-anchor="{anchor}">{html_text(str(entries[i]["started"])[:10])}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _of(dialect: str) -> str:
    return f" of {html_attribute(dialect)}" if dialect else ""


def _axes(most: int) -> list[str]:
    bottom, right = _HEIGHT - _PAD, _WIDTH - _PAD
    return [
        f'<line x1="{_PAD}" y1="{_PAD / 2}" x2="{_PAD}" y2="{bottom}" class="axis"/>',
        f'<line x1="{_PAD}" y1="{bottom}" x2="{right}" y2="{bottom}" class="axis"/>',
        f'<line x1="{right}" y1="{_PAD / 2}" x2="{right}" y2="{bottom}" class="axis"/>',
        f'<text x="4" y="{_PAD / 2 + 4}" class="tick score">100%</text>',
        f'<text x="4" y="{bottom}" class="tick score">0%</text>',
        f'<text x="{right + 4}" y="{_PAD / 2 + 4}" class="tick failures">{most}</text>',
        f'<text x="{right + 4}" y="{bottom}" class="tick failures">0</text>',
        f'<text x="{_PAD + 8}" y="14" class="legend score">— mutation score</text>',
        f'<text x="{_PAD + 160}" y="14" class="legend failures">— failing rules</text>',
    ]


def _x(index: int, count: int) -> float:
    span = _WIDTH - 2 * _PAD
    return _PAD + (span / 2 if count == 1 else span * index / (count - 1))


def _polyline(fractions: Sequence[float | None], kind: str) -> str:
    bottom, height = _HEIGHT - _PAD, _HEIGHT - _PAD - _PAD / 2
    points = [
        (_x(i, len(fractions)), bottom - f * height)
        for i, f in enumerate(fractions)
        if f is not None
    ]
    if not points:
        return ""
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" class="{kind}"/>' for x, y in points)
    return f'<polyline points="{line}" class="line {kind}"/>{dots}'
