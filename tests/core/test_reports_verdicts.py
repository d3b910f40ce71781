"""Every report shows where each failed rule was found and what it costs (verdicts.md §4):
the HTML page, the Markdown summary, the JUnit XML and the matrix show `found_on` and
`impact` per failed rule, each opens with a headline per target (documented failures by
impact, then observed-only with each departure named, then synthetic-only), and a results
file written before shapes still renders, with no verdict made up."""

from __future__ import annotations

import copy
import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from test_reports_escaping import SCRIPT

from refold.reference.chat import RULES
from refold.reports import (
    escape_markdown,
    headline_lines,
    render_html,
    render_junit,
    render_markdown,
    render_matrix_html,
    render_matrix_markdown,
    write_all,
)

Q3_SUMMARY = "tool-call fragments without `index`"


def _failed(
    rule_id: str, found_on: str | None, impact: str | None, departures: list[str] | None = None
) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "feature": RULES[rule_id].feature,
        "registry": "spec",
        "statement": RULES[rule_id].statement,
        "status": "failed",
        "tests": 2,
        "reason": f"{rule_id}: differs",
        "failure": {
            "message": f"{rule_id} ({RULES[rule_id].feature}): differs",
            "chunks": [{"id": rule_id}],
            "expected": 1,
            "received": 2,
            "pointer": "/id",
        },
    }
    if found_on is not None:
        rule["found_on"] = found_on
        rule["failure"]["shape"] = found_on
    if impact is not None:
        rule["impact"] = rule["failure"]["impact"] = impact
    if departures is not None:
        rule["departures"] = rule["failure"]["departures"] = departures
    return rule


VERDICTS: dict[str, tuple[str, str, list[str]]] = {
    "TEXT-JOIN": ("documented", "loss", []),
    "CHOICE-ROLE": ("documented", "representation", []),
    "USAGE-LAST": ("documented", "corruption", []),
    "TOOL-NO-INDEX": ("observed", "loss", ["Q3"]),
    "ROB-NOT-OBJECT": ("synthetic", "crash", ["SYN-NOT-OBJECT"]),
}


def verdict_results(name: str = "mysdk") -> dict[str, Any]:
    """A run whose failed rules carry verdicts, one of each shape, with departure notes."""
    rules: dict[str, Any] = {}
    for rule_id, entry in RULES.items():
        if rule_id in VERDICTS:
            rules[rule_id] = _failed(rule_id, *VERDICTS[rule_id])
        else:
            rules[rule_id] = {
                "feature": entry.feature,
                "registry": "spec",
                "statement": entry.statement,
                "status": "passed",
                "tests": 1,
                "reason": None,
                "failure": None,
            }
    return {
        "refold_version": "0.1.0",
        "target": {"name": name, "description": f"{name} 1.0", "features": ["text"]},
        "versions": {},
        "started": "2026-12-04T00:00:00+00:00",
        "duration_seconds": 1.0,
        "hypothesis_profile": "ci",
        "rules": rules,
        "totals": {"failed": len(VERDICTS), "passed": len(RULES) - len(VERDICTS)},
        "departures": {
            "Q3": {"shape": "observed", "summary": Q3_SUMMARY, "provenance": ["Mistral (docs)"]},
            "SYN-NOT-OBJECT": {
                "shape": "synthetic",
                "summary": "an item that is not an object",
                "provenance": [],
            },
        },
    }


def before_shapes() -> dict[str, Any]:
    """The same run as a file written before shapes: no verdict keys, no notes."""
    results = verdict_results()
    results.pop("departures")
    for rule in results["rules"].values():
        for key in ("found_on", "impact", "departures"):
            rule.pop(key, None)
        for key in ("shape", "impact", "departures"):
            (rule["failure"] or {}).pop(key, None)
    return results


def _text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_the_headline_sorts_failed_rules_by_shape_and_documented_ones_by_impact() -> None:
    text = "\n".join(headline_lines(verdict_results()))
    assert text.startswith("mysdk") and "5 rules fail" in text
    documented, observed = text.index("documented"), text.index("observed")
    synthetic = text.index("synthetic")
    assert documented < observed < synthetic
    worst_first = text[documented:observed]
    assert (
        worst_first.index("loss")
        < worst_first.index("TEXT-JOIN")
        < worst_first.index("corruption")
        < worst_first.index("USAGE-LAST")
        < worst_first.index("representation")
        < worst_first.index("CHOICE-ROLE")
    )
    assert f"TOOL-NO-INDEX (loss): Q3 ({Q3_SUMMARY})" in text[observed:synthetic]
    assert "ROB-NOT-OBJECT" in text[synthetic:] and "crash" in text[synthetic:]
    assert len(text.splitlines()) <= 2 + len(VERDICTS)  # short: a line a group, or a rule


def test_a_run_without_failures_has_a_one_line_headline() -> None:
    results = verdict_results()
    for rule in results["rules"].values():
        rule.update(status="passed", failure=None)
    [line] = headline_lines(results)
    assert line.startswith("mysdk") and "no rule fails" in line


def test_each_format_opens_with_the_headline_before_the_rule_table() -> None:
    results = verdict_results()
    page = _text(render_html(results))
    assert page.index("only on observed departures") < page.index("by feature")
    assert f"TOOL-NO-INDEX (loss): Q3 ({Q3_SUMMARY})" in page
    summary = render_markdown(results)
    assert summary.index("only on observed departures") < summary.index("| feature |")
    assert (
        "  - " + escape_markdown(f"TOOL-NO-INDEX (loss): Q3 ({Q3_SUMMARY})") in summary.splitlines()
    )
    suite = ET.fromstring(render_junit(results)).find("testsuite")
    assert suite is not None
    first = suite.find("properties/property")
    assert first is not None and first.attrib["name"] == "headline"
    assert first.attrib["value"].splitlines() == headline_lines(results)


def test_every_failed_rule_shows_its_shape_and_impact_in_each_format() -> None:
    results = verdict_results()
    page = render_html(results)
    summary = render_markdown(results)
    cases = {c.attrib["name"]: c for c in ET.fromstring(render_junit(results)).iter("testcase")}
    for rule_id, (found_on, impact, departures) in VERDICTS.items():
        row = re.search(rf'<tr><td><a href="#fail-{rule_id}">.*?</tr>', page)
        assert row is not None and f"{found_on} · {impact}" in row.group(), rule_id
        heading = re.search(rf'<div class="failure" id="fail-{rule_id}">.*?</h3>', page)
        assert heading is not None and f"{found_on} · {impact}" in heading.group()
        escaped = rule_id.replace("-", "\\-")
        line = next(line for line in summary.splitlines() if line.startswith(f"- **{escaped}**"))
        assert found_on in line and impact in line
        case = cases[rule_id]
        properties = {p.attrib["name"]: p.attrib["value"] for p in case.iter("property")}
        assert properties == {
            "found_on": found_on,
            "impact": impact,
            **({"departures": " ".join(departures)} if departures else {}),
        }
        failure = case.find("failure")
        assert failure is not None
        assert failure.attrib["message"].startswith(f"[{found_on} · {impact}] ")


def test_a_failing_stream_names_its_shape_and_each_departure_with_who_sends_it() -> None:
    page = render_html(verdict_results())
    block = page[page.index('id="fail-TOOL-NO-INDEX"') :].split("</div>")[0]
    text = _text(block)
    assert "stream: observed; departures:" in text
    assert f"Q3 {Q3_SUMMARY} [observed] (sent by: Mistral (docs))" in text


def test_a_matrix_cell_of_a_failed_rule_shows_its_shape_and_impact() -> None:
    runs = [verdict_results("a"), before_shapes()]
    markdown = render_matrix_markdown(runs)
    assert "| TEXT\\-JOIN | fail · doc · loss | fail |" in markdown
    assert "| TOOL\\-NO\\-INDEX | fail · obs · loss | fail |" in markdown
    assert "| ROB\\-NOT\\-OBJECT | fail · syn · crash | fail |" in markdown
    page = render_matrix_html(runs)
    assert re.search(r'href="#run1-TEXT-JOIN">fail · doc · loss</a>', page)
    assert re.search(r'href="#run2-TEXT-JOIN">fail</a>', page)


def test_the_matrix_opens_with_a_headline_per_target() -> None:
    runs = [verdict_results("first"), verdict_results("second")]
    markdown = render_matrix_markdown(runs)
    table = markdown.index("| rule |")
    assert (
        markdown.index("**first: 5 rules fail**")
        < markdown.index("**second: 5 rules fail**")
        < table
    )
    page = render_matrix_html(runs)
    assert (
        page.index("first: 5 rules fail")
        < page.index("second: 5 rules fail")
        < page.index('<table class="matrix">')
    )


def test_a_file_written_before_shapes_renders_with_no_verdict_made_up() -> None:
    results = before_shapes()
    page = render_html(results)
    assert set(re.findall(r'<td class="verdict">([^<]*)</td>', page)) == {""}
    assert '<span class="verdict">' not in page and 'class="shape"' not in page
    assert headline_lines(results) == [
        "mysdk: 5 rules fail",
        "  recorded without a stream shape: "
        + ", ".join(rule_id for rule_id in RULES if rule_id in VERDICTS),
    ]
    assert "recorded without a stream shape: " in _text(page)
    summary = render_markdown(results)
    assert "- **TEXT\\-JOIN**: " + escape_markdown("TEXT-JOIN (text): differs") in summary
    junit = ET.fromstring(render_junit(results))
    assert [c for c in junit.iter("testcase") if c.find("properties") is not None] == []
    assert "| TEXT\\-JOIN | fail |" in render_matrix_markdown([results])


def test_a_verdict_outside_the_vocabularies_is_not_shown() -> None:
    results = verdict_results()
    results["rules"]["TEXT-JOIN"].update(found_on="mostly", impact=SCRIPT)
    page = render_html(results)
    assert "mostly" not in page and "alert" not in page
    assert "TEXT-JOIN" in headline_lines(results)[-1]  # recorded without a stream shape


def test_departure_text_and_target_names_are_escaped_in_every_headline() -> None:
    results = verdict_results(f"sdk{SCRIPT}")
    results["departures"]["Q3"].update(summary=f"*bold* {SCRIPT}", provenance=[SCRIPT])
    for page in (render_html(results), render_matrix_html([results])):
        assert "<script" not in page.lower()
        assert "&lt;script&gt;" in page
    for text in (render_markdown(results), render_matrix_markdown([results])):
        assert "<script" not in text.lower() and "\\*bold\\*" in text
    ET.fromstring(render_junit(results))  # well-formed


def test_the_results_json_written_keeps_each_failed_rules_verdict(tmp_path: Path) -> None:
    write_all(copy.deepcopy(verdict_results()), tmp_path)
    written = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    for rule_id, (found_on, impact, departures) in VERDICTS.items():
        rule = written["rules"][rule_id]
        assert (rule["found_on"], rule["impact"], rule["departures"]) == (
            found_on,
            impact,
            departures,
        )
