"""A target's control characters never reach the terminal raw: failure messages and the
result table show ESC, OSC and the other C0/C1 controls as visible escapes; and the
Markdown summary shows a quote as itself."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from refold.records.results import RuleOutcome, RuleResults
from refold.reference import Difference
from refold.reports import escape_markdown
from refold.run.checks import ConformanceFailure
from refold.run.console import printable
from refold.run.table import render_rule_table

ROOT = Path(__file__).resolve().parents[3]
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"
REFOLD = [sys.executable, "-m", "refold.cli"]
HOSTILE = "title\x1b]0;pwned\x07 clear\x1b[2J csi\x9b31m del\x7f nul\x00 bell\x07"


def _raw_controls(text: str) -> list[str]:
    return [c for c in text if (ord(c) < 0x20 and c not in "\t\n") or 0x7F <= ord(c) <= 0x9F]


def test_printable_escapes_every_control_but_tab_and_newline() -> None:
    shown = printable(HOSTILE + "\ttab\nline")
    assert _raw_controls(shown) == []
    assert "\\u001b]0;pwned\\u0007" in shown and "\\u009b31m" in shown
    assert shown.endswith("\ttab\nline")


def test_a_failure_message_shows_a_targets_controls_escaped() -> None:
    failure = ConformanceFailure(
        ("TEXT-JOIN",),
        f"summary {HOSTILE}",
        chunks=[{"content": HOSTILE}],
        differences=[Difference("/content", "a", HOSTILE)],
        target_error=f"stderr tail: {HOSTILE}",
    )
    message = str(failure)
    assert _raw_controls(message) == []
    assert "\\u001b[2J" in message


def test_a_failure_message_line_is_cut_visibly() -> None:
    failure = ConformanceFailure(("TEXT-JOIN",), "summary", target_error="e" * 1_000_000)
    assert len(str(failure)) < 20_000 and "bytes cut)" in str(failure)


@pytest.mark.parametrize("color", [True, False])
def test_the_rule_table_shows_a_reasons_controls_escaped(color: bool) -> None:
    results = RuleResults()
    results.by_rule["TEXT-JOIN"] = outcome = RuleOutcome()
    outcome.mark_failed(HOSTILE)
    table = render_rule_table(results, color=color)
    row = next(line for line in table.splitlines() if "TEXT-JOIN" in line)
    assert "\\u001b]0;pwned" in row
    if not color:
        assert _raw_controls(table) == []


def test_markdown_shows_a_quote_as_itself() -> None:
    assert escape_markdown('it\'s "quoted" <b>') == 'it\'s "quoted" &lt;b&gt;'


RAISER = """
def fold(chunks):
    raise ValueError("boom \\x1b]0;pwned\\x07 \\x9b31m")
"""


def test_a_targets_exception_reaches_the_terminal_escaped(tmp_path: Path) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    (tmp_path / "raiser.py").write_text(RAISER, encoding="utf-8")
    done = subprocess.run(
        [
            *REFOLD,
            "check",
            "--target",
            "raiser.py",
            "--",
            "test_sample.py",
            "-k",
            "test_text_is_joined",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    assert _raw_controls(done.stdout + done.stderr) == []
    assert "ValueError: boom \\u001b]0;pwned\\u0007 \\u009b31m" in done.stdout
