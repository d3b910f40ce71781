"""The results JSON: every rule id with a status, the documented shape, the minimal
failing stream of a failure, and the same results under pytest-xdist."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from refold.dialects import DIALECTS, dialect
from refold.records.report import build_report, dialect_record_of
from refold.records.results import RuleOutcome, RuleResults
from refold.reference import STATUSES, UNNAMED_DIALECT
from refold.reference.anthropic import FEATURES as AM_FEATURES
from refold.reference.anthropic import RULES as AM_RULES
from refold.reference.chat import ALL_RULES, RULES, SSE_RULES

ROOT = Path(__file__).resolve().parents[3]
BROKEN = ROOT / "examples" / "targets" / "broken_accumulator.py"
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"


@pytest.fixture(scope="module", params=["serial", "xdist"])
def results(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    workdir = tmp_path_factory.mktemp(request.param)
    shutil.copy(SAMPLE_SUITE, workdir / "test_sample.py")
    parallel = ["-n", "2"] if request.param == "xdist" else []
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            *parallel,
            f"--target={BROKEN}",
            "--refold-report=out/results.json",
            "test_sample.py",
        ],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    return json.loads((workdir / "out" / "results.json").read_text(encoding="utf-8"))


def test_the_report_has_the_documented_top_level_shape(results: Any) -> None:
    # `departures`: the notes on the departures the failed rules name, when they name one
    assert set(results) - {"departures"} == {
        "refold_version",
        "target",
        "versions",
        "started",
        "duration_seconds",
        "hypothesis_profile",
        "settings",
        "dialect",
        "rules",
        "totals",
    }
    for note in results.get("departures", {}).values():
        assert set(note) == {"shape", "summary", "provenance"}
    assert set(results["target"]) == {"name", "description", "features"}
    assert {"python", "pytest", "hypothesis", "refold"} <= set(results["versions"])
    datetime.fromisoformat(results["started"])
    assert isinstance(results["duration_seconds"], float)
    assert isinstance(results["hypothesis_profile"], str)


def test_every_rule_id_is_listed_with_a_status(results: Any) -> None:
    assert list(results["rules"]) == [*RULES, *SSE_RULES]  # the spec's, then the wire rules
    for rule_id, entry in results["rules"].items():
        # a failed rule says where it failed and what that costs (verdicts.md §4)
        found = {"found_on", "impact", "departures"} if entry["status"] == "failed" else set()
        assert set(entry) == {
            "feature",
            "registry",
            "statement",
            "status",
            "tests",
            "reason",
            "failure",
            "blocked_by",
            "fingerprints",
            "verdict",
            *found,
        }
        assert entry["status"] in STATUSES, rule_id
        assert entry["feature"] == ALL_RULES[rule_id].feature
        assert entry["registry"] == ("wire" if rule_id in SSE_RULES else "spec")
    assert sum(results["totals"].values()) == len(ALL_RULES)


def test_statuses_follow_the_tests_of_each_rule(results: Any) -> None:
    rules = results["rules"]
    assert rules["ENV-ID"]["status"] == "failed" and rules["ENV-ID"]["tests"] == 2
    assert rules["CHOICE-FINISH"]["status"] == "failed"
    assert rules["TEXT-JOIN"]["status"] == "passed" and rules["TEXT-JOIN"]["failure"] is None
    assert rules["TOOL-1-OPEN"]["status"] == "not run"


def test_a_failure_carries_its_minimal_stream_and_first_difference(results: Any) -> None:
    failure = results["rules"]["ENV-ID"]["failure"]
    assert set(failure) == {
        "message",
        "chunks",
        "expected",
        "received",
        "pointer",
        "replay_file",
        "diagnosis",
        "shape",
        "departures",
        "impact",
    }
    assert failure["impact"] == "corruption"  # another id than the first: a wrong value
    # the chat dialect tells no shapes on this branch: nothing can be shown documented
    assert failure["shape"] == results["rules"]["ENV-ID"]["found_on"] == "synthetic"
    assert results["rules"]["ENV-ID"]["impact"] == "corruption"
    assert failure["diagnosis"] == []  # the catalogue knows no policy of a changing id
    assert "  diagnosis: no known policy" in failure["message"].splitlines()
    assert re.fullmatch(r"refold-replays[\\/]ENV-ID-\w+\.json", failure["replay_file"])
    assert failure["message"].startswith("ENV-ID (text):")
    ids = [chunk["id"] for chunk in failure["chunks"]]
    assert len(ids) == 2 and ids[0] != ids[1]  # shrunk to two distinct ids
    assert failure["pointer"] == "/id"
    assert failure["expected"]["id"] == ids[0] and failure["received"]["id"] == ids[1]
    finish = results["rules"]["CHOICE-FINISH"]["failure"]
    assert finish["pointer"] == "/choices/0/finish_reason"
    assert results["rules"]["CHOICE-FINISH"]["reason"].startswith("CHOICE-FINISH (text):")


def test_a_chat_run_names_its_dialect(results: Any) -> None:
    assert results["dialect"] == {
        "name": "openai-chat",
        "title": "OpenAI Chat Completions",
        "spec": "chat-fold.md",
        "item": "chunk",
        "features": list(dialect("openai-chat").features),
        "extra_rules_note": dialect("openai-chat").extra_rules_note,
        "docs": "https://platform.openai.com/docs/api-reference/chat/streaming",
    }


def _anthropic_report() -> dict[str, Any]:
    results = RuleResults()
    results.by_rule["AM-LIFE-FINISHED"] = outcome = RuleOutcome()
    outcome.add("failed", message="AM-LIFE-FINISHED (lifecycle): finished too early")
    results.by_rule["AM-TEXT-JOIN"] = passed = RuleOutcome()
    passed.add("passed")
    return build_report(
        results,
        target=None,
        started=datetime(2026, 12, 1),
        duration_seconds=1.0,
        hypothesis_profile="dev",
        dialect=dialect("anthropic-messages"),
    )


def test_the_results_of_an_anthropic_run_name_anthropic_messages_and_list_its_rules() -> None:
    report = _anthropic_report()
    assert report["dialect"] == {
        "name": "anthropic-messages",
        "title": "Anthropic Messages",
        "spec": "anthropic-fold.md",
        "item": "event",
        "features": list(AM_FEATURES),
        "extra_rules_note": None,
        "docs": "https://docs.claude.com/en/docs/build-with-claude/streaming",
    }
    assert list(report["rules"]) == list(AM_RULES)  # its rules only, in report order
    assert {entry["registry"] for entry in report["rules"].values()} == {"spec"}
    assert report["rules"]["AM-LIFE-FINISHED"]["status"] == "failed"
    assert report["rules"]["AM-TEXT-JOIN"]["status"] == "passed"
    assert report["rules"]["AM-TEXT-JOIN"]["feature"] == AM_RULES["AM-TEXT-JOIN"].feature
    assert sum(report["totals"].values()) == len(AM_RULES) == 45


def test_a_record_naming_no_dialect_is_the_registered_chat_dialect() -> None:
    # The reports cannot import the registry: their default must not drift from it.
    assert dialect_record_of(DIALECTS["openai-chat"]) == UNNAMED_DIALECT
