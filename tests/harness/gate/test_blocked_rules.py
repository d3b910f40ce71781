"""A rule whose tests fail only through a crash charged to another rule is blocked, not
failed: in the outcomes, the results JSON, the reports and the baselines written from
them; and once the blocking rule is a known failure, a gated run is green."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

import pytest
from _crash_streams import SPARSE, SPARSE_CRASH

from refold.commands.baseline import baseline_from_results
from refold.records.results import BLOCKED_PROPERTY, IMPLICATED_PROPERTY, STATUSES, RuleResults
from refold.reference import STATUSES as VOCABULARY
from refold.reports import _html, _markdown, render_html, render_junit, render_markdown

_SUITE = f"""
from refold.run.marks import rule

SPARSE = {SPARSE!r}
PLAIN = [{{"id": "c", "choices": [{{"index": 0, "delta": {{"content": "hi"}}}}]}}]


@rule("TOOL-1-OPEN", "TEXT-JOIN")
def test_a_call_opens_on_a_sparse_index(check):
    check.folds_like_reference(SPARSE)


@rule("TOOL-INDEX")
def test_calls_join_by_a_sparse_index(check):
    check.folds_like_reference(SPARSE)


@rule("TEXT-JOIN")
def test_text_joins(check):
    check.folds_like_reference(PLAIN)
"""


def _report(
    outcome: Literal["passed", "failed"], rules: str, implicated: str = "", blocked: str = ""
) -> pytest.TestReport:
    properties: list[tuple[str, object]] = [("rules", rules)]
    if implicated:
        properties += [(IMPLICATED_PROPERTY, implicated), (BLOCKED_PROPERTY, blocked)]
    return pytest.TestReport(
        "t.py::t", ("t.py", 0, "t"), {}, outcome, None, "call", user_properties=properties
    )


def test_blocked_is_one_status_between_xfailed_and_passed_in_the_harness_and_the_reports() -> None:
    # One definition (refold.reference): the results and the reports use the same tuple.
    assert STATUSES is VOCABULARY and _html.STATUSES is VOCABULARY
    assert _markdown.STATUSES is VOCABULARY
    assert STATUSES.index("xfailed") < STATUSES.index("blocked") < STATUSES.index("passed")


def test_a_rule_failing_only_through_another_rules_crash_is_blocked_by_it() -> None:
    results = RuleResults()
    results.record(
        _report("failed", "TOOL-1-OPEN TEXT-JOIN", "TOOL-INDEX", "TOOL-1-OPEN TEXT-JOIN"),
        ["TOOL-1-OPEN", "TEXT-JOIN"],
    )
    results.record(_report("passed", "TEXT-JOIN"), ["TEXT-JOIN"])
    assert results.status("TOOL-INDEX") == "failed"
    for rule_id in ("TOOL-1-OPEN", "TEXT-JOIN"):
        assert results.status(rule_id) == "blocked"
        assert results.by_rule[rule_id].reason == "blocked by TOOL-INDEX"


def test_direct_evidence_against_a_blocked_rule_makes_it_failed() -> None:
    results = RuleResults()
    results.record(_report("failed", "TOOL-1-OPEN", "TOOL-INDEX", "TOOL-1-OPEN"), ["TOOL-1-OPEN"])
    results.record(_report("failed", "TOOL-1-OPEN", "TOOL-1-OPEN"), ["TOOL-1-OPEN"])
    assert results.status("TOOL-1-OPEN") == "failed"


def test_a_difference_failure_still_leaves_the_tests_other_rules_passed() -> None:
    results = RuleResults()
    results.record(
        _report("failed", "USAGE-LAST ROB-BLANK", "USAGE-LAST"), ["USAGE-LAST", "ROB-BLANK"]
    )
    assert results.status("ROB-BLANK") == "passed"


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def sparse_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The sample suite run against a target that crashes on sparse tool indexes."""
    work = tmp_path_factory.mktemp("blocked")
    (work / "sparse_crash.py").write_text(SPARSE_CRASH, encoding="utf-8")
    (work / "test_sample.py").write_text(_SUITE, encoding="utf-8")
    done = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--target",
            "sparse_crash.py",
            "--refold-report",
            "results.json",
            "test_sample.py",
        ],
        work,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    return work, json.loads((work / "results.json").read_text(encoding="utf-8"))


def test_a_crash_on_a_sparse_index_fails_tool_index_and_blocks_the_other_marked_rules(
    sparse_run: tuple[Path, dict[str, Any]],
) -> None:
    _, results = sparse_run
    rules = results["rules"]
    assert rules["TOOL-INDEX"]["status"] == "failed"
    assert "raised at chunk 2 of 4" in rules["TOOL-INDEX"]["failure"]["message"]
    for rule_id in ("TOOL-1-OPEN", "TEXT-JOIN"):
        assert rules[rule_id]["status"] == "blocked"
        assert rules[rule_id]["reason"] == "blocked by TOOL-INDEX"
        assert rules[rule_id]["blocked_by"] == ["TOOL-INDEX"]
    assert results["totals"]["failed"] == 1 and results["totals"]["blocked"] == 2


def test_reports_show_a_blocked_rule_as_blocked_and_junit_as_skipped_not_failed(
    sparse_run: tuple[Path, dict[str, Any]],
) -> None:
    _, results = sparse_run
    junit = render_junit(results)
    assert 'message="blocked: blocked by TOOL-INDEX"' in junit
    assert 'failures="1"' in junit
    assert '<td class="status blocked">blocked</td>' in render_html(results)
    summary = render_markdown(results)
    assert "### Blocked rules" in summary and "**TOOL\\-1\\-OPEN**: blocked by TOOL\\-INDEX" in (
        summary
    )


def test_a_written_baseline_lists_the_blocking_rule_only_and_the_gated_run_is_green(
    sparse_run: tuple[Path, dict[str, Any]],
) -> None:
    work, results = sparse_run
    assert baseline_from_results(results, target="t").expected_failures.keys() == {"TOOL-INDEX"}
    written = _run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "baseline",
            "--target",
            "sparse_crash.py",
            "--write",
            "baseline.toml",
            "--",
            "test_sample.py",
        ],
        work,
    )
    assert written.returncode == 0, written.stdout[-3000:]
    assert "1 expected failures" in written.stdout
    gated = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-rA",
            "--baseline",
            "baseline.toml",
            "--refold-report",
            "gated.json",
            "test_sample.py",
        ],
        work,
    )
    assert gated.returncode == 0, gated.stdout[-3000:]
    assert "2 xfailed" in gated.stdout and "1 passed" in gated.stdout
    assert "new failure" not in gated.stdout
    rules = json.loads((work / "gated.json").read_text(encoding="utf-8"))["rules"]
    assert rules["TOOL-INDEX"]["status"] == "xfailed"
    assert rules["TOOL-1-OPEN"]["status"] == "blocked"


def test_a_null_choice_crash_in_the_noise_round_trip_fails_rob_null_entries_alone(
    tmp_path: Path,
) -> None:
    target = (
        Path(__file__).resolve().parents[3] / "examples" / "broken" / ("crash_on_null_choice.py")
    )
    done = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            f"--target={target}",
            "--hypothesis-profile=dev",
            "--shrink-seconds=5",
            "--replay-dir=",
            "--refold-report",
            "results.json",
            "-k",
            "family-8",
        ],
        tmp_path,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    rules = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["rules"]
    failed = {rule_id for rule_id, entry in rules.items() if entry["status"] == "failed"}
    assert failed == {"ROB-NULL-ENTRIES"}, done.stdout[-3000:]
    for rule_id in (
        "ROB-BLANK",
        "ROB-UNKNOWN-KEYS",
        "CHOICE-DELTA-NULL",
        "ENV-ID",
        "CHOICE-FINISH",
    ):
        assert rules[rule_id]["status"] == "blocked", rule_id
        assert rules[rule_id]["blocked_by"] == ["ROB-NULL-ENTRIES"]


_GROUPED = f"""
from refold.run.checks import ConformanceFailure
from refold.run.marks import rule
from refold.reference.chat import fold

SPARSE = {SPARSE!r}
PLAIN = [{{"id": "c", "choices": [{{"index": 0, "delta": {{"content": "hi"}}}}]}}]


@rule("TOOL-1-OPEN", "TEXT-JOIN")
def test_two_distinct_failures_at_once(check):
    wrong = fold(PLAIN)
    wrong["choices"][0]["message"]["content"] = "ho"
    found = []
    for chunks, expected in ((SPARSE, fold(SPARSE)), (PLAIN, wrong)):
        try:
            check.folds_to(chunks, expected)
        except ConformanceFailure as exc:
            found.append(exc)
    raise ExceptionGroup("two failures, as Hypothesis reports them", found)
"""


def test_a_rule_another_failure_of_the_same_test_implicates_is_failed_not_blocked(
    tmp_path: Path,
) -> None:
    (tmp_path / "sparse_crash.py").write_text(SPARSE_CRASH, encoding="utf-8")
    (tmp_path / "test_grouped.py").write_text(_GROUPED, encoding="utf-8")
    done = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--target",
            "sparse_crash.py",
            "--refold-report",
            "results.json",
            "test_grouped.py",
        ],
        tmp_path,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    rules = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["rules"]
    assert rules["TOOL-INDEX"]["status"] == "failed"
    assert rules["TEXT-JOIN"]["status"] == "failed"  # the content differs: direct evidence
    assert rules["TOOL-1-OPEN"]["status"] == "blocked"
