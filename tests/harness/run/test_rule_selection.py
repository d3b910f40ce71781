"""`--rules ID,ID` runs only the tests that check one of the named rules: every id must be
a rule of the run's dialect (a typo or another dialect's id is refused at once, exit 4,
with the ids received and what was expected), the other tests are deselected, and the
rules they alone check are reported as not run, never as passed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from refold.dialects import DIALECTS
from refold.errors import UsageError
from refold.run.rule_selection import selected_rules

REFOLD = [sys.executable, "-m", "refold.cli"]
ANTHROPIC = DIALECTS["anthropic-messages"]


def test_the_named_ids_are_the_selection_with_blanks_and_spaces_dropped() -> None:
    assert selected_rules(" AM-USAGE-BASE, ,AM-PING ", ANTHROPIC) == frozenset(
        {"AM-USAGE-BASE", "AM-PING"}
    )
    assert selected_rules(None, ANTHROPIC) is None


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("AM-USAGE-BSE", "no dialect has the rule ids AM-USAGE-BSE"),
        (
            "USAGE-LAST",
            "USAGE-LAST are rules of openai-chat, but this run checks anthropic-messages",
        ),
        (" , ", "expected one or more rule ids"),
    ],
)
def test_an_id_the_run_cannot_select_is_refused_with_what_was_expected(
    option: str, said: str
) -> None:
    with pytest.raises(UsageError, match="expected") as raised:
        selected_rules(option, ANTHROPIC)
    assert said in str(raised.value)


def test_a_run_of_one_rule_runs_only_its_tests_and_reports_the_others_not_run(
    tmp_path: Path,
) -> None:
    results = tmp_path / "results.json"
    run = subprocess.run(
        [
            *REFOLD,
            "check",
            "--dialect",
            "anthropic-messages",
            "--rules",
            "AM-USAGE-BASE",
            "--report",
            str(results),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "deselected" in run.stdout
    statuses = {
        rule: entry["status"] for rule, entry in json.loads(results.read_text())["rules"].items()
    }
    assert statuses["AM-USAGE-BASE"] == "passed"
    assert statuses["AM-SSE-EMPTY"] == "not run"
    assert "passed" not in {statuses[r] for r in ("AM-SSE-EMPTY", "AM-THINK-SIGNATURE")}


def test_another_dialects_rule_is_refused_before_any_test_runs(tmp_path: Path) -> None:
    run = subprocess.run(
        [*REFOLD, "check", "--rules", "AM-USAGE-BASE"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 4
    assert (
        "AM-USAGE-BASE are rules of anthropic-messages, but this run checks openai-chat"
        in run.stderr
    )
    assert "Traceback" not in run.stdout + run.stderr
    assert "never ran to a result" not in run.stdout
