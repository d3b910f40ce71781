"""`refold check --corpus DIR` (and `pytest --corpus DIR`) replay a corpus against a target.

Each case is one test of the rules deciding its expectation's places, so a failure is
charged to rules as in every suite; a run checks one dialect, and a corpus's cases of
another are counted, not run. Without `--corpus` the corpus suite is never collected.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from refold.cli import main

STARTER = Path(__file__).resolve().parents[3] / "examples" / "corpus"


def refold(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run(
        [sys.executable, "-m", "refold.cli", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=environment,
        check=False,
    )


def _edited_case(corpus: Path, *, as_question: bool) -> Path:
    corpus.mkdir()
    case = json.loads((STARTER / "anthropic-text.json").read_text())
    case["expected"]["stop_reason"] = "max_tokens"  # not what the stream says
    if as_question:
        case["question"] = {
            "stated": case["expected"],
            "differences": [
                {
                    "pointer": "/stop_reason",
                    "rules": ["AM-STOP-REASON"],
                    "stated": "max_tokens",
                    "reference": "end_turn",
                }
            ],
        }
    path = corpus / "edited.json"
    path.write_text(json.dumps(case))
    shutil.copy(STARTER / "anthropic-tool-use.json", corpus)
    return path


def test_a_case_whose_expectation_the_reference_does_not_reproduce_is_refused(
    tmp_path: Path,
) -> None:
    edited = _edited_case(tmp_path / "corpus", as_question=False)
    done = refold("check", "--corpus", str(tmp_path / "corpus"), cwd=tmp_path)
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"case file {edited}" in done.stderr
    assert "the reference does not reproduce" in done.stderr and "Traceback" not in done.stderr


def test_a_disagreement_recorded_as_a_question_is_checked_charged_to_the_rule_of_its_place(
    tmp_path: Path,
) -> None:
    _edited_case(tmp_path / "corpus", as_question=True)
    done = refold(
        "check", "--corpus", str(tmp_path / "corpus"), "--report", "results.json", cwd=tmp_path
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "AM-STOP-REASON (text): the fold differs from the expected response" in done.stdout
    assert 'at /stop_reason: expected "max_tokens", received "end_turn"' in done.stdout
    rules = json.loads((tmp_path / "results.json").read_text())["rules"]
    assert {r for r, e in rules.items() if e["status"] == "failed"} == {"AM-STOP-REASON"}
    assert rules["AM-TOOL-JOIN"]["status"] == "passed"  # the tool-use case passed


def test_with_the_reference_a_mixed_corpus_is_checked_one_dialect_after_another(
    tmp_path: Path,
) -> None:
    done = refold("check", "--corpus", str(STARTER), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    runs = [line for line in lines if line.startswith("refold check: ")]
    assert runs == [
        f"refold check: the corpus's {name} cases"
        for name in (
            "anthropic-messages",
            "gemini-generate-content",
            "openai-chat",
            "openai-responses",
        )
    ]
    assert [line.split(" in ")[0] for line in lines if " passed in " in line] == [
        "5 passed",
        "1 passed",
        "1 passed",
        "1 passed",
    ]
    # each run checks one dialect and says where the others' cases are checked
    assert (
        "refold: 5 collected tests of dialect anthropic-messages were not run: a run "
        "checks one dialect (openai-chat); refold check --corpus with the reference runs "
        "each dialect in turn, or --dialect anthropic-messages"
    ) in lines


def test_pytest_corpus_is_the_same_run(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            f"--corpus={STARTER}",
            "--dialect=anthropic-messages",
            "--target=reference",
            "-p",
            "no:cacheprovider",
            "-q",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 passed" in done.stdout
    assert "test_a_recorded_stream_folds_as_its_case_expects[anthropic-web-search]" not in (
        done.stdout
    )  # passed quietly


def test_a_missing_corpus_folder_is_refused_before_the_run(tmp_path: Path, capsys: Any) -> None:
    assert main(["check", "--corpus", str(tmp_path / "absent")]) == 4
    err = capsys.readouterr().err
    assert "no such folder; expected a folder of case files" in err
    assert err.count("\n") == 1


def test_a_damaged_case_file_is_refused_naming_it(tmp_path: Path, capsys: Any) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "bad.json").write_text('{"format": "refold-case/1", "dialect": "gopher"}')
    assert main(["check", "--corpus", str(corpus)]) == 4
    assert "bad.json: `dialect` is 'gopher'" in capsys.readouterr().err


def test_without_corpus_the_corpus_suite_is_not_collected(pytestconfig: Any) -> None:
    from refold.capture.corpus_run import corpus_suite
    from refold.run.plugin import pytest_ignore_collect

    # this very run was given no --corpus: the suite's folder and module are ignored
    assert pytest_ignore_collect(corpus_suite(), pytestconfig) is True
    assert pytest_ignore_collect(corpus_suite() / "test_corpus.py", pytestconfig) is True
