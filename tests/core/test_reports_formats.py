"""The report formats: one JUnit testcase per rule, the Markdown summary's tables, the
files `write_all` writes, and the trend drawn from a history folder."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from refold.commands.report import score_drop
from refold.reference.chat import RULES
from refold.reports import (
    history_entry,
    load_history,
    record_history,
    render_junit,
    render_markdown,
    trend_svg,
    write_all,
)

STATUSES = ["passed", "failed", "xfailed", "skipped", "not run"]


def every_rule_results() -> dict[str, Any]:
    rules = {}
    for number, entry in enumerate(RULES.values()):
        status = STATUSES[number % len(STATUSES)]
        rules[entry.id] = {
            "feature": entry.feature,
            "statement": entry.statement,
            "status": status,
            "tests": 1,
            "reason": "in the baseline" if status == "xfailed" else None,
            "failure": {
                "message": f"{entry.id}: differs",
                "chunks": [{"id": "x"}],
                "expected": 1,
                "received": 2,
                "pointer": "/id",
            }
            if status == "failed"
            else None,
        }
    totals: dict[str, int] = {}
    for rule in rules.values():
        totals[rule["status"]] = totals.get(rule["status"], 0) + 1
    return {
        "refold_version": "0.1.0",
        "target": {"name": "t", "description": "d", "features": ["text"]},
        "versions": {},
        "started": "2026-11-30T01:00:00+00:00",
        "duration_seconds": 2.0,
        "hypothesis_profile": "ci",
        "rules": rules,
        "totals": totals,
    }


MUTATION = {
    "format": "refold-mutation/1",
    "target": "reference",
    "score": 97.5,
    "duration_seconds": 60.0,
    "counts": {"killed": 39, "survived": 1},
    "mutants": {
        "m.x_f__mutmut_1": {
            "status": "survived",
            "function": "m.x_f",
            "diff": "-a\n+b",
            "rules": ["TEXT-JOIN"],
        },
        "m.x_f__mutmut_2": {"status": "killed", "function": "m.x_f"},
    },
}


def test_junit_has_one_testcase_per_rule_with_its_outcome() -> None:
    results = every_rule_results()
    suite = ET.fromstring(render_junit(results)).find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert sorted(c.attrib["name"] for c in cases) == sorted(RULES)  # each exactly once
    for case in cases:
        status = results["rules"][case.attrib["name"]]["status"]
        assert (case.find("failure") is not None) == (status == "failed")
        assert (case.find("skipped") is not None) == (status in ("xfailed", "skipped", "not run"))
    assert suite.attrib["failures"] == str(results["totals"]["failed"])
    assert suite.attrib["tests"] == str(len(RULES))


def test_markdown_counts_each_feature_and_lists_failing_rules_and_survivors() -> None:
    results = every_rule_results()
    summary = render_markdown(results, mutation=MUTATION)
    failing = [r for r, v in results["rules"].items() if v["status"] == "failed"]
    for rule_id in failing:
        assert f"**{rule_id.replace('-', chr(92) + '-')}**" in summary
    assert "### Mutation score: 97.50%" in summary
    assert "| m\\.x\\_f | 1 | TEXT\\-JOIN |" in summary


def test_write_all_writes_every_format_and_the_trend(tmp_path: Path) -> None:
    history = tmp_path / "history"
    record_history({"started": "2026-11-28T00:00:00", "failed_rules": 3, "score": 90.0}, history)
    written = write_all(
        every_rule_results(),
        tmp_path / "out",
        mutation=MUTATION,
        coverage={
            "package": "p",
            "totals": {"lines_percent": 90.0, "branches_percent": 80.0},
            "files": {},
        },
        history=history,
    )
    assert sorted(p.name for p in written) == sorted(
        [
            "report.html",
            "results.json",
            "junit.xml",
            "summary.md",
            "mutation.json",
            "coverage.json",
            "trend.svg",
        ]
    )
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "<svg" in page and "97.50%" in page and "90.0% of lines" in page
    assert json.loads((tmp_path / "out" / "mutation.json").read_text())["score"] == 97.5


def test_the_trend_plots_one_point_per_run_on_each_line(tmp_path: Path) -> None:
    for day, score in ((1, 90.0), (2, None), (3, 95.0)):
        record_history(
            {"started": f"2026-11-0{day}T00:00:00", "failed_rules": day, "score": score}, tmp_path
        )
    entries = load_history(tmp_path)
    assert [e["started"][:10] for e in entries] == ["2026-11-01", "2026-11-02", "2026-11-03"]
    svg = trend_svg(entries)
    ET.fromstring(svg)  # well-formed
    assert svg.count('class="score"/>') == 2 and svg.count('class="failures"/>') == 3


def test_a_lower_score_than_the_last_recorded_run_is_a_drop() -> None:
    earlier = [history_entry(every_rule_results(), {"score": 96.0})]
    assert score_drop(earlier, {"score": 95.99}) is not None
    assert score_drop(earlier, {"score": 96.0}) is None
    assert score_drop(earlier, None) is None
    assert score_drop([], {"score": 10.0}) is None


def _with_wire_rules() -> dict[str, Any]:
    from refold.reference.chat import SSE_RULES

    results = every_rule_results()
    for rule_id, entry in SSE_RULES.items():
        results["rules"][rule_id] = {
            "feature": "sse",
            "registry": "wire",
            "statement": entry.statement,
            "status": "passed",
            "tests": 1,
            "reason": None,
            "failure": None,
        }
    results["rules"]["SSE-BOM"].update(status="xfailed", reason="openai deviates from SSE-BOM")
    return results


def test_wire_rules_get_their_own_junit_testsuite_marked_as_not_the_spec() -> None:
    from refold.reference.chat import SSE_RULES

    spec, wire = ET.fromstring(render_junit(_with_wire_rules())).findall("testsuite")
    assert sorted(c.attrib["name"] for c in spec.findall("testcase")) == sorted(RULES)
    assert spec.attrib["tests"] == str(len(RULES))
    assert [c.attrib["name"] for c in wire.findall("testcase")] == list(SSE_RULES)
    assert "not part of chat-fold.md" in wire.attrib["name"]
    assert (wire.attrib["tests"], wire.attrib["failures"], wire.attrib["skipped"]) == (
        str(len(SSE_RULES)),
        "0",
        "1",
    )


def test_markdown_and_html_label_the_wire_rules_group_as_not_the_spec() -> None:
    from refold.reports import render_html

    results = _with_wire_rules()
    summary = render_markdown(results)
    wire_rows = [line for line in summary.splitlines() if line.startswith("| sse ")]
    assert len(wire_rows) == 1 and "not part of chat\\-fold\\.md" in wire_rows[0]
    # xfailed, blocked, not judged, passed, ...
    assert wire_rows[0].endswith("| 1 |  |  | 15 |  |  |")
    page = render_html(results)
    assert page.index("not part of chat-fold.md") > page.index("LIFE-AFTER")


# The chat reports, committed before dialects existed (the Anthropic ones name theirs).
CONFORMANCE = sorted(
    path
    for path in (Path(__file__).resolve().parents[2] / "reports" / "conformance").glob(
        "*/results.json"
    )
    if json.loads(path.read_text(encoding="utf-8")).get("dialect", {"name": "openai-chat"})["name"]
    == "openai-chat"
)
"""The committed chat reports; each is read as one written before dialects, with its
`dialect` key left out (the reports regenerated since name it)."""


def _anthropic_results() -> dict[str, Any]:
    from datetime import datetime

    from refold.dialects import dialect
    from refold.records.report import build_report
    from refold.records.results import RuleOutcome, RuleResults

    results = RuleResults()
    results.by_rule["AM-LIFE-FINISHED"] = outcome = RuleOutcome()
    outcome.add(
        "failed",
        message="AM-LIFE-FINISHED: finished too early",
        failure={
            "message": "AM-LIFE-FINISHED: finished too early",
            "chunks": [{"type": "ping"}],
            "expected": None,
            "received": None,
            "pointer": None,
        },
    )
    return build_report(
        results,
        target=None,
        started=datetime(2026, 12, 1),
        duration_seconds=1.0,
        hypothesis_profile="dev",
        dialect=dialect("anthropic-messages"),
    )


def test_the_committed_results_written_before_dialects_render_as_openai_chat() -> None:
    from refold.reports import render_html

    assert CONFORMANCE, "no committed results to read"
    for path in CONFORMANCE:
        results = json.loads(path.read_text(encoding="utf-8"))
        results.pop("dialect", None)  # as a file written before dialects
        said = "OpenAI Chat Completions (openai-chat, chat-fold.md)"
        assert said in html_text(render_html(results)), path
        assert "OpenAI Chat Completions \\(openai\\-chat, chat\\-fold\\.md\\)" in render_markdown(
            results
        ), path
        suites = ET.fromstring(render_junit(results)).findall("testsuite")
        assert [_property(s, "dialect") for s in suites] == ["openai-chat"] * len(suites)
        assert history_entry(results, None)["dialect"] == "openai-chat"


def html_text(page: str) -> str:
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", page))


def _property(suite: ET.Element, name: str) -> str | None:
    for found in suite.iter("property"):
        if found.attrib["name"] == name:
            return found.attrib["value"]
    return None


def test_the_reports_of_an_anthropic_run_show_its_dialect_and_its_features() -> None:
    from refold.reference.anthropic import FEATURES as AM_FEATURES
    from refold.reference.anthropic import RULES as AM_RULES
    from refold.reports import render_html

    results = _anthropic_results()
    page = render_html(results)
    text = html_text(page)
    assert "Anthropic Messages (anthropic-messages, anthropic-fold.md)" in text
    headings = re.findall(r'<tr class="feature"><td colspan="5">([^<]+)</td>', page)
    assert headings == [f for f in AM_FEATURES if any(r.feature == f for r in AM_RULES.values())]
    assert "events (1), one JSON object a line" in page and "chunks (" not in page
    assert "not part of" not in page
    summary = render_markdown(results)
    assert "Anthropic Messages \\(anthropic\\-messages, anthropic\\-fold\\.md\\)" in summary
    [suite] = ET.fromstring(render_junit(results)).findall("testsuite")
    assert _property(suite, "dialect") == "anthropic-messages"
    assert suite.attrib["tests"] == str(len(AM_RULES)) and suite.attrib["failures"] == "1"


def test_the_trend_draws_the_runs_of_this_runs_dialect_and_names_it(tmp_path: Path) -> None:
    history = tmp_path / "history"
    record_history(
        {"started": "2026-11-28T00:00:00", "failed_rules": 3, "score": None}, history
    )  # written before dialects: a chat run
    record_history(
        {**history_entry(_anthropic_results(), None), "started": "2026-11-29T00:00:00"}, history
    )
    assert [e.get("dialect") for e in load_history(history)] == [None, "anthropic-messages"]
    write_all(_anthropic_results(), tmp_path / "out", history=history)
    svg = (tmp_path / "out" / "trend.svg").read_text(encoding="utf-8")
    assert svg.count('class="failures"/>') == 2  # this run and the earlier anthropic one
    assert "Anthropic Messages" in svg
    write_all(every_rule_results(), tmp_path / "chat", history=history)
    chat = (tmp_path / "chat" / "trend.svg").read_text(encoding="utf-8")
    assert chat.count('class="failures"/>') == 2 and "OpenAI Chat Completions" in chat
