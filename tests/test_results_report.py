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

from refold.reference import ALL_RULES, RULES, SSE_RULES
from refold.results import STATUSES

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "examples" / "targets" / "broken_accumulator.py"
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"


@pytest.fixture(scope="module", params=["serial", "xdist"])
def results(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    workdir = tmp_path_factory.mktemp(request.param)
    shutil.copy(SAMPLE_SUITE, workdir / "test_sample.py")
    parallel = ["-n", "2"] if request.param == "xdist" else []
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *parallel,
         f"--target={BROKEN}", "--refold-report=out/results.json", "test_sample.py"],
        cwd=workdir, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 1, done.stdout[-3000:]
    return json.loads((workdir / "out" / "results.json").read_text(encoding="utf-8"))


def test_the_report_has_the_documented_top_level_shape(results: Any) -> None:
    assert set(results) == {"refold_version", "target", "versions", "started",
                            "duration_seconds", "hypothesis_profile", "settings", "rules",
                            "totals"}
    assert set(results["target"]) == {"name", "description", "features"}
    assert {"python", "pytest", "hypothesis", "refold"} <= set(results["versions"])
    datetime.fromisoformat(results["started"])
    assert isinstance(results["duration_seconds"], float)
    assert isinstance(results["hypothesis_profile"], str)


def test_every_rule_id_is_listed_with_a_status(results: Any) -> None:
    assert list(results["rules"]) == [*RULES, *SSE_RULES]  # the spec's, then the wire rules
    for rule_id, entry in results["rules"].items():
        assert set(entry) == {"feature", "registry", "statement", "status", "tests", "reason",
                              "failure", "blocked_by", "fingerprints", "verdict"}
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
    assert set(failure) == {"message", "chunks", "expected", "received", "pointer",
                            "replay_file"}
    assert re.fullmatch(r"refold-replays[\\/]ENV-ID-\w+\.json", failure["replay_file"])
    assert failure["message"].startswith("ENV-ID (text):")
    ids = [chunk["id"] for chunk in failure["chunks"]]
    assert len(ids) == 2 and ids[0] != ids[1]  # shrunk to two distinct ids
    assert failure["pointer"] == "/id"
    assert failure["expected"]["id"] == ids[0] and failure["received"]["id"] == ids[1]
    finish = results["rules"]["CHOICE-FINISH"]["failure"]
    assert finish["pointer"] == "/choices/0/finish_reason"
    assert results["rules"]["CHOICE-FINISH"]["reason"].startswith("CHOICE-FINISH (text):")
