"""The status "not judged": a rule a target's stated projection leaves unjudged is skipped
with a reason that says so, recorded apart from passed and skipped, and shown so in the
terminal table, the results JSON and every report (escaped as every string of a run is);
`refold rules --target` lists such rules."""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from refold.cli import main
from refold.dialects import OPENAI_RESPONSES
from refold.gate.judge import apply_claims
from refold.records.report import build_report
from refold.records.results import IMPLICATED_PROPERTY, UNJUDGED_PROPERTY, RuleResults
from refold.reference import STATUSES
from refold.reports import render_html, render_junit, render_markdown
from refold.run.projection import Projection, not_judged_reason, unjudged_rules
from refold.run.table import render_rule_table
from refold.targets.python import from_object

HOSTILE = Projection(
    ("/output/*/content/*/text",), "a <script>alert(1)</script> | *AIMessage* [x](y)"
)
REASON = not_judged_reason(HOSTILE)


def _fold(events: list[Any]) -> dict[str, Any]:
    return OPENAI_RESPONSES.fold(events)


def _target() -> Any:
    return from_object(
        {
            "name": "projected",
            "dialect": "openai-responses",
            "fold": _fold,
            "projection": HOSTILE.record(),
        },
        name="projected",
    )


class _Item:
    """What `apply_claims` touches of a collected test."""

    def __init__(self) -> None:
        self.user_properties: list[tuple[str, object]] = []
        self.markers: list[pytest.MarkDecorator] = []

    def add_marker(self, marker: pytest.MarkDecorator) -> None:
        self.markers.append(marker)


def _report(
    outcome: str, rules: str, unjudged: str, *, when: str = "call", implicated: str = ""
) -> pytest.TestReport:
    properties: list[tuple[str, object]] = [
        ("rules", rules),
        (UNJUDGED_PROPERTY, {"rules": unjudged, "reason": REASON}),
    ]
    if implicated:
        properties.append((IMPLICATED_PROPERTY, implicated))
    longrepr = ("t.py", 1, f"Skipped: {REASON}") if outcome == "skipped" else None
    return pytest.TestReport(
        "t.py::t", ("t.py", 0, "t"), {}, outcome, longrepr, when, user_properties=properties
    )


def test_not_judged_is_one_status_between_blocked_and_passed() -> None:
    assert STATUSES.index("blocked") < STATUSES.index("not judged") < STATUSES.index("passed")


def test_a_test_of_unjudged_rules_only_is_skipped_saying_why() -> None:
    item = _Item()
    apply_claims(item, ("RS-USAGE-TERMINAL",), ("usage",), _target(), None)  # type: ignore[arg-type]
    assert [m.kwargs["reason"] for m in item.markers] == [REASON]
    assert REASON.startswith("not judged: outside the target's stated projection (a <script>")
    assert item.user_properties == [
        (UNJUDGED_PROPERTY, {"rules": "RS-USAGE-TERMINAL", "reason": REASON})
    ]
    mixed = _Item()
    apply_claims(mixed, ("RS-TEXT-JOIN", "RS-USAGE-TERMINAL"), ("text", "usage"), _target(), None)  # type: ignore[arg-type]
    assert mixed.markers == [] and len(mixed.user_properties) == 1


def test_a_target_without_projection_marks_nothing() -> None:
    item = _Item()
    target = from_object(
        {"name": "whole", "dialect": "openai-responses", "fold": _fold}, name="whole"
    )
    apply_claims(item, ("RS-USAGE-TERMINAL",), ("usage",), target, None)  # type: ignore[arg-type]
    assert item.markers == [] and item.user_properties == []


def test_unjudged_rules_are_not_judged_whatever_their_tests_outcome() -> None:
    results = RuleResults()
    results.record(
        _report("skipped", "RS-USAGE-TERMINAL", "RS-USAGE-TERMINAL", when="setup"),
        ["RS-USAGE-TERMINAL"],
    )
    results.record(
        _report("passed", "RS-TEXT-JOIN RS-OBJECT", "RS-OBJECT"), ["RS-TEXT-JOIN", "RS-OBJECT"]
    )
    results.record(
        _report(
            "failed", "RS-TEXT-JOIN RS-ANNOTATIONS", "RS-ANNOTATIONS", implicated="RS-TEXT-JOIN"
        ),
        ["RS-TEXT-JOIN", "RS-ANNOTATIONS"],
    )
    assert results.status("RS-TEXT-JOIN") == "failed"
    for rule_id in ("RS-USAGE-TERMINAL", "RS-OBJECT", "RS-ANNOTATIONS"):
        assert results.status(rule_id) == "not judged", rule_id
        assert results.by_rule[rule_id].reason == REASON


def _results() -> dict[str, Any]:
    results = RuleResults()
    results.record(
        _report("skipped", "RS-USAGE-TERMINAL", "RS-USAGE-TERMINAL", when="setup"),
        ["RS-USAGE-TERMINAL"],
    )
    results.record(_report("passed", "RS-TEXT-JOIN", ""), ["RS-TEXT-JOIN"])
    return build_report(
        results,
        target=_target(),
        started=datetime(2026, 12, 2, tzinfo=UTC),
        duration_seconds=1.0,
        hypothesis_profile="ci",
        dialect=OPENAI_RESPONSES,
    )


def test_the_results_json_names_the_status_and_the_projection() -> None:
    document = _results()
    assert document["rules"]["RS-USAGE-TERMINAL"]["status"] == "not judged"
    assert document["rules"]["RS-USAGE-TERMINAL"]["reason"] == REASON
    assert document["rules"]["RS-TEXT-JOIN"]["status"] == "passed"
    assert document["totals"]["not judged"] == 1
    assert document["target"]["projection"] == HOSTILE.record()


def test_the_terminal_table_shows_not_judged_apart_from_passed() -> None:
    results = RuleResults()
    results.record(
        _report("skipped", "RS-USAGE-TERMINAL", "RS-USAGE-TERMINAL", when="setup"),
        ["RS-USAGE-TERMINAL"],
    )
    table = render_rule_table(results, color=False, dialect=OPENAI_RESPONSES)
    row = next(line for line in table.splitlines() if "RS-USAGE-TERMINAL" in line)
    assert row.split()[1:3] == ["not", "judged"] and "not judged: outside" in row
    assert "1 not judged" in table.splitlines()[-1]


def test_html_shows_the_status_distinctly_and_escapes_the_projection() -> None:
    page = render_html(_results())
    assert '<td class="status not-judged">not judged</td>' in page
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "projection: a &lt;script&gt;" in page


def test_markdown_lists_the_rules_not_judged_and_escapes_the_projection() -> None:
    summary = render_markdown(_results())
    assert "not judged" in summary.splitlines()[0]
    assert "### Rules not judged (outside the target's stated projection" in summary
    assert "**RS\\-USAGE\\-TERMINAL**" in summary
    assert "<script>" not in summary and "&lt;script&gt;" in summary
    assert "\\*AIMessage\\*" in summary


def test_junit_reports_a_rule_not_judged_as_skipped_with_its_reason() -> None:
    suite = ET.fromstring(render_junit(_results())).find("testsuite")
    assert suite is not None
    cases = {c.attrib["name"]: c for c in suite.findall("testcase")}
    skipped = cases["RS-USAGE-TERMINAL"].find("skipped")
    assert skipped is not None and skipped.attrib["message"] == REASON
    assert cases["RS-TEXT-JOIN"].find("skipped") is None


def test_the_matrix_shows_a_rule_not_judged_in_a_cell_of_its_own() -> None:
    from refold.reports import render_matrix_html, render_matrix_markdown

    page = render_matrix_html([_results()])
    assert '<td class="cell status not-judged" title="not judged">unjudged</td>' in page
    assert "| RS\\-USAGE\\-TERMINAL | unjudged |" in render_matrix_markdown([_results()])


def test_refold_rules_lists_the_rules_a_targets_projection_leaves_unjudged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "projected.py"
    path.write_text(
        textwrap.dedent("""
        from refold.reference.responses import fold

        refold_target = {"name": "projected", "dialect": "openai-responses", "fold": fold,
                         "projection": {"pointers": ["/output/*/content/*/text"],
                                        "builds": "text only"}}
    """),
        encoding="utf-8",
    )
    assert main(["rules", "--target", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("openai-responses: ")
    assert lines[-2] == (
        "target projected states a projection: text only; compared: /output/*/content/*/text"
    )
    unjudged = unjudged_rules(OPENAI_RESPONSES, Projection(("/output/*/content/*/text",), "t"))
    listed = lines[-1].rpartition("): ")[2].split(", ")
    assert set(listed) == unjudged and "RS-USAGE-TERMINAL" in listed


_SUITE = """
from refold.run.marks import rule

PLAIN = [{"id": "c", "model": "m", "choices": [{"index": 0, "delta": {"content": "hi"}}]}]


@rule("TEXT-JOIN", "ENV-MODEL")
def test_text_joins_and_the_model_is_kept(check):
    check.folds_like_reference(PLAIN)


@rule("ENV-MODEL")
def test_the_model_is_kept(check):
    check.folds_like_reference(PLAIN)
"""

_MODELLESS = """
from refold.reference.chat import fold as reference


def fold(chunks):
    result = reference(chunks)
    result.pop("model", None)
    return result


refold_target = {"name": "modelless", "fold": fold, "features": ["text"],
                 "projection": {"pointers": ["/id", "/object", "/created", "/choices"],
                                "builds": "a chat completion without its model"}}
"""


def test_a_run_skips_what_is_not_judged_and_passes_what_is(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    (tmp_path / "test_sample.py").write_text(_SUITE, encoding="utf-8")
    (tmp_path / "modelless.py").write_text(_MODELLESS, encoding="utf-8")
    done = subprocess.run(
        # the user accepts the projection that leaves ENV-MODEL (of claimed `text`) unjudged
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-rs",
            "--accept-projection",
            "--target=modelless.py",
            "--refold-report",
            "results.json",
            "test_sample.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "1 passed, 1 skipped" in done.stdout
    assert (
        "not judged: outside the target's stated projection (a chat completion "
        "without its model; compared: /id, /object, /created, /choices)" in done.stdout
    )
    assert "refold projection: a chat completion without its model" in done.stdout
    assert "ENV-MODEL            not judged 2 tests: not judged: outside" in done.stdout
    rules = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["rules"]
    assert rules["TEXT-JOIN"]["status"] == "passed"
    assert rules["ENV-MODEL"]["status"] == "not judged" and rules["ENV-MODEL"]["tests"] == 2


def test_the_unjudged_property_crosses_from_an_xdist_worker_intact() -> None:
    from execnet import dumps, loads

    report = _report("passed", "RS-TEXT-JOIN RS-OBJECT", "RS-OBJECT")
    crossed = pytest.TestReport._from_json(loads(dumps(report._to_json())))
    results = RuleResults()
    results.record(crossed, ["RS-TEXT-JOIN", "RS-OBJECT"])
    assert results.status("RS-OBJECT") == "not judged"
    assert results.by_rule["RS-OBJECT"].reason == REASON
