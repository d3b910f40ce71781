"""The compact console of a refold run: one block per failed rule, then the table.

A refold run at pytest's default verbosity (or quieter, as `refold check` runs) prints no
traceback per failed test: `use_compact_console` turns pytest's failure sections and its
`FAILED` line per test off (`--tb=no`, no `f` in `-r`), and the plugin prints instead, per
failed rule in table order, a block: the rule, where it failed and what it costs; its failure
message with the target's tracebacks left out; its minimal stream; and the `refold replay`
command that re-runs it. A rule whose recorded failure is an earlier block's says so in one
line. The harness's frames never come before the message: there are none. `-v`, or a `--tb`
or `-r` of the user's own, gives pytest's full output back, and the report files
(`--report-dir`) always hold every failure whole.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from typing import Any

import pytest

from .console import format_chunks, printable

__all__ = [
    "COMPACT",
    "render_failed_rules",
    "render_headline",
    "render_unruled_failures",
    "use_compact_console",
    "write_failed_rules",
]

COMPACT = pytest.StashKey[bool]()
"""Set on the config of a run whose console is compact."""

_LINE_CHARS = 400
"""How much of one line of a block is shown; the replay file and the reports hold it all."""

_STREAM_LINES = 12
"""How many of the minimal stream's items a block shows."""

_DEFAULT_REPORT_CHARS = "fE"  # pytest's default -r


def use_compact_console(config: pytest.Config) -> bool:
    """Make a refold run's console compact unless the user asked for pytest's detail (`-v`,
    `--tb`, `-r`); True when it did. Called once the terminal reporter exists."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if (
        reporter is None
        or config.get_verbosity() > 0
        or config.option.tbstyle != "auto"
        or config.option.reportchars != _DEFAULT_REPORT_CHARS
    ):
        return False
    config.option.tbstyle = "no"
    reporter.reportchars = reporter.reportchars.replace("f", "")  # errors stay listed
    config.stash[COMPACT] = True
    return True


def render_failed_rules(document: Mapping[str, Any], *, target: str, color: bool) -> str:
    """The blocks of the failed rules of a results document (`refold.records.report.build_report`),
    in its rules' order; `target` is the run's target as `--target` takes it. "" when no
    rule failed."""
    items = _items(document)
    shown: dict[str, str] = {}  # a failure's JSON -> the first rule whose block showed it
    blocks = []
    for rule_id, rule in document.get("rules", {}).items():
        if rule.get("status") != "failed":
            continue
        failure = rule.get("failure") or {"message": rule.get("reason") or "failed"}
        key = json.dumps(failure, sort_keys=True, default=str)
        lines = [_paint(_heading(rule_id, rule), color=color)]
        if key in shown:
            lines.append(f"    the same failure as {shown[key]}, above")
        else:
            shown[key] = rule_id
            lines += _failure_lines(failure, items, target)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def write_failed_rules(terminalreporter: Any, document: Mapping[str, Any], target: str) -> None:
    """Write the failed rules' blocks in a section of their own (nothing when none failed)."""
    blocks = render_failed_rules(document, target=target, color=terminalreporter.hasmarkup)
    if blocks:
        terminalreporter.section("refold: failed rules")
        terminalreporter.write(blocks)


def _items(document: Mapping[str, Any]) -> str:
    dialect = document.get("dialect")
    item = dialect.get("item") if isinstance(dialect, Mapping) else None
    return f"{item}s" if isinstance(item, str) else "chunks"


def _heading(rule_id: str, rule: Mapping[str, Any]) -> str:
    """`TEXT-JOIN (text) · documented · loss · departures: Q3, Q4`."""
    parts = [f"{rule_id} ({rule.get('feature', '')})"]
    parts += [str(rule[key]) for key in ("found_on", "impact") if rule.get(key)]
    departures = rule.get("departures")
    if isinstance(departures, list) and departures:
        parts.append("departures: " + ", ".join(map(str, departures)))
    return printable(" · ".join(parts))


def _failure_lines(failure: Mapping[str, Any], items: str, target: str) -> list[str]:
    message = str(failure.get("message") or "")
    lines = _without_tracebacks(message.splitlines())
    chunks = failure.get("chunks")
    if isinstance(chunks, list) and chunks and not _streams_in(lines):
        lines.append(f"{items} ({len(chunks)}, one JSON object per line):")
        lines += [f"  {line}" for line in format_chunks(chunks).splitlines()]
    lines = _bounded_stream(lines)
    if isinstance(failure.get("replay_file"), str):
        command = shlex.join(["refold", "replay", failure["replay_file"], "--target", target])
        lines.append(f"replay: {command}")
    # Indented deeper than the table's rows, so no line reads as one ("  RULE-ID   failed").
    return [f"    {_cut(printable(line))}" for line in lines]


def _without_tracebacks(lines: list[str]) -> list[str]:
    """The message's lines without any traceback (the exception line before it says what
    was raised; the full traceback is in the reports and under `-v`)."""
    kept: list[str] = []
    skipping_from: int | None = None
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if skipping_from is not None and (indent >= skipping_from or not line.strip()):
            continue
        skipping_from = None
        if line.strip() == "Traceback (most recent call last):":
            skipping_from = indent
            kept.append(f"{' ' * indent}(traceback: in the reports, or with -v)")
            continue
        kept.append(line)
    return kept


def _streams_in(lines: list[str]) -> bool:
    return any(" one JSON object per line):" in line and not line.startswith(" ") for line in lines)


def _bounded_stream(lines: list[str]) -> list[str]:
    """The lines with the stream's items cut to `_STREAM_LINES`."""
    start = next(
        (
            n
            for n, line in enumerate(lines)
            if not line.startswith(" ") and " one JSON object per line):" in line
        ),
        None,
    )
    if start is None:
        return lines
    stream = [line for line in lines[start + 1 :] if line.startswith("  ")]
    rest = lines[start + 1 + len(stream) :]
    if len(stream) <= _STREAM_LINES:
        return lines
    more = len(stream) - _STREAM_LINES
    return [
        *lines[: start + 1],
        *stream[:_STREAM_LINES],
        f"  … {more} more (the replay file and the reports hold them)",
        *rest,
    ]


def _cut(line: str) -> str:
    return line if len(line) <= _LINE_CHARS else line[: _LINE_CHARS - 1] + "…"


def render_unruled_failures(reports: list[Any]) -> str:
    """`FAILED nodeid - message` per failed test that checks no rule (a test of the user's
    own in a refold run): it has no block, and its traceback is one `-v` away."""
    lines = []
    for report in reports:
        if getattr(report, "when", None) == "call" and not dict(report.user_properties).get(
            "rules"
        ):
            crash = getattr(report.longrepr, "reprcrash", None)
            message = str(getattr(crash, "message", "") or "").strip().splitlines()
            said = f" - {message[0]}" if message else ""
            lines.append(_cut(printable(f"FAILED {report.nodeid}{said}")))
    return (
        "\n".join([*lines, "(tests that check no rule: -v shows their tracebacks)"]) + "\n"
        if lines
        else ""
    )


def render_headline(document: Mapping[str, Any]) -> str:
    """The run's headline (`refold.reports.headline_lines`), safe for a terminal."""
    from refold.reports import headline_lines

    return "\n".join(printable(line) for line in headline_lines(document)) + "\n"


def _paint(text: str, *, color: bool) -> str:
    return f"\x1b[1;31m{text}\x1b[0m" if color else text
