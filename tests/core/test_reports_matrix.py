"""The conformance matrix (`refold report --matrix`): runs side by side, rules as rows and
targets as columns, grouped by dialect and feature, each failed cell linked to its failing
stream on the same page; the committed SDK matrix is what the committed results render."""

from __future__ import annotations

import copy
import re
import struct
from pathlib import Path
from typing import Any

import pytest
from test_reports_escaping import SCRIPT, results_with
from test_reports_html_screenshot import CHROMIUM, screenshot

from refold.cli import main
from refold.reports import render_matrix_html, render_matrix_markdown, write_matrix

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "reports" / "conformance"


def _anthropic_run(name: str, status: str) -> dict[str, Any]:
    return {
        "target": {"name": name, "description": f"{name} 1.0"},
        "dialect": {
            "name": "anthropic-messages",
            "title": "Anthropic Messages",
            "spec": "anthropic-fold.md",
            "item": "event",
            "features": ["text", "usage"],
            "extra_rules_note": None,
        },
        "rules": {
            "AM-START-BASE": {
                "feature": "text",
                "statement": "s",
                "status": status,
                "tests": 2,
                "reason": None,
                "failure": None,
            },
            "AM-USAGE-BASE": {
                "feature": "usage",
                "statement": "u",
                "status": "passed",
                "tests": 1,
                "reason": None,
                "failure": None,
            },
        },
    }


def _committed_runs() -> list[dict[str, Any]]:
    import json

    return [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(CONFORMANCE.glob("*/results.json"))
    ]


def test_runs_sit_only_beside_runs_of_their_own_dialect() -> None:
    page = render_matrix_markdown(
        [
            results_with("a"),
            _anthropic_run("claude-x", "passed"),
            _anthropic_run("claude-y", "failed"),
        ]
    )
    headline, chat, anthropic = page.split("### ")[1:]
    assert headline.startswith("Headline per target")
    assert "OpenAI Chat Completions" in chat and "claude" not in chat
    assert "Anthropic Messages" in anthropic
    header = next(line for line in anthropic.splitlines() if line.startswith("| rule"))
    assert header == "| rule | claude\\-x | claude\\-y |"


def test_each_feature_has_a_totals_row_per_target() -> None:
    page = render_matrix_markdown([_anthropic_run("a", "passed"), _anthropic_run("b", "failed")])
    rows = [line for line in page.splitlines() if line.startswith("| passed")]
    assert rows == ["| passed | 1/1 | 0/1 |", "| passed | 1/1 | 1/1 |"]


def test_a_rule_a_run_does_not_name_is_not_run_in_its_column() -> None:
    short = _anthropic_run("short", "passed")
    del short["rules"]["AM-USAGE-BASE"]
    page = render_matrix_markdown([_anthropic_run("full", "passed"), short])
    assert "| AM\\-USAGE\\-BASE | pass | — |" in page


def test_every_failed_cell_links_to_its_failing_stream_on_the_page() -> None:
    page = render_matrix_html([results_with("hello"), results_with("again")])
    links = re.findall(r'href="#([^"]+)"', page)
    assert links == ["run1-TEXT-JOIN", "run2-TEXT-JOIN"]
    for anchor in links:
        block = page[page.index(f'id="{anchor}"') :]
        assert "TEXT-JOIN: content differs" in block.split("</div>")[0]


def test_strings_from_runs_are_escaped_in_both_forms() -> None:
    runs = [results_with(SCRIPT)]
    html_page = render_matrix_html(runs)
    assert "<script" not in html_page.lower()
    assert "&lt;script&gt;" in html_page
    markdown = render_matrix_markdown(runs)
    assert "<script" not in markdown.lower()


def test_credentials_in_a_failure_are_not_in_the_matrix(tmp_path: Path) -> None:
    secret = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
    run = results_with(f"key {secret}")
    run["rules"]["TEXT-JOIN"]["failure"]["received"] = {"api_key": "plain-secret-value"}
    for path in write_matrix([copy.deepcopy(run)], tmp_path):
        text = path.read_text(encoding="utf-8")
        assert secret not in text and "plain-secret-value" not in text


def test_the_committed_matrix_is_what_the_committed_results_render() -> None:
    runs = _committed_runs()
    assert len(runs) >= 3
    committed_html = (CONFORMANCE / "matrix.html").read_text(encoding="utf-8")
    committed_md = (CONFORMANCE / "matrix.md").read_text(encoding="utf-8")
    from refold.reports import scrub_text

    assert committed_html == scrub_text(render_matrix_html(runs)), (
        "reports/conformance/matrix.html is stale: run refold report --matrix "
        "reports/conformance/*/results.json --out reports/conformance"
    )
    assert committed_md == scrub_text(render_matrix_markdown(runs))


def test_refold_report_matrix_writes_the_page_and_the_summary(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = [str(path) for path in sorted(CONFORMANCE.glob("*/results.json"))[:2]]
    assert main(["report", "--matrix", *files, "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out.split() == [
        str(tmp_path / "matrix.html"),
        str(tmp_path / "matrix.md"),
    ]


def test_a_missing_results_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--matrix", str(tmp_path / "nope.json")]) == 4
    message = capsys.readouterr().err
    assert "nope.json" in message and "expected the JSON document of a run" in message
    assert "Traceback" not in message


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_the_committed_matrix_paints_in_headless_chromium(tmp_path: Path) -> None:
    png = tmp_path / "matrix.png"
    screenshot(CONFORMANCE / "matrix.html", png, tmp_path / "chromium-profile")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1200, 1600)
    assert len(data) > 30_000, f"screenshot is {len(data)} bytes: did the page paint?"
