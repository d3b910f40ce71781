"""The `refold` command wraps pytest: `check` exits non-zero on a broken target and 0
on the reference, prints the table plainly when not on a terminal, and writes the
results for the renderers; the plugin stays silent in unrelated pytest runs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from refold.cli import build_parser
from refold.commands.baseline import baseline_from_results
from refold.commands.check import pytest_arguments

ROOT = Path(__file__).resolve().parents[3]
BROKEN = ROOT / "examples" / "targets" / "broken_accumulator.py"
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"
REFOLD = [sys.executable, "-m", "refold.cli"]


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)


def test_check_passes_its_options_to_pytest() -> None:
    args = build_parser().parse_args(
        [
            "check",
            "--target",
            "exec:node t.js",
            "--baseline",
            "b.toml",
            "--report-dir",
            "out",
            "--target-timeout",
            "2",
            "--",
            "-k",
            "tool",
        ]
    )
    argv = pytest_arguments(args)
    assert "--target=exec:node t.js" in argv
    assert "--baseline=b.toml" in argv
    assert f"--refold-report={Path('out') / 'results.json'}" in argv
    assert "--target-timeout=2.0" in argv
    assert argv[-2:] == ["-k", "tool"]


def test_check_defaults_to_the_reference_unless_a_baseline_names_the_target() -> None:
    plain = pytest_arguments(build_parser().parse_args(["check"]))
    assert "--target=reference" in plain
    gated = pytest_arguments(build_parser().parse_args(["check", "--baseline", "b.toml"]))
    assert not [a for a in gated if a.startswith("--target=")]


def test_check_passes_each_option_as_one_token_so_pytest_never_reads_a_value_as_a_path(
    tmp_path: Path,
) -> None:
    # `--target examples/x.py` as two tokens made pytest root the run at the target's
    # folder, and name the installed suites' tests after it.
    target = tmp_path / "examples" / "fold_only.py"
    target.parent.mkdir()
    target.write_text("from refold.reference.chat import fold\n", encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "check",
            "--target",
            "examples/fold_only.py",
            "--profile",
            "dev",
            "--",
            "-k",
            "test_the_id_is_the_first_non_blank_chunk_id",
            "-rA",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "examples/test_" not in run.stdout
    assert "PASSED openai_chat/test_rule_examples_envelope.py::" in run.stdout


def test_a_baseline_lists_exactly_the_failed_rules_of_a_run() -> None:
    results = {
        "target": {"features": ["text", "usage"]},
        "rules": {
            "ENV-ID": {"status": "failed", "reason": "ENV-ID (text): differs\nmore"},
            "ENV-MODEL": {"status": "passed", "reason": None},
            "USAGE-LAST": {"status": "xfailed", "reason": "baseline"},
        },
    }
    baseline = baseline_from_results(results, target="mypkg")
    assert baseline.expected_failures == {"ENV-ID": "ENV-ID (text): differs"}
    assert baseline.features == {"text", "usage"}


def test_check_on_a_broken_target_prints_its_failures_by_rule_and_fails(tmp_path: Path) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    done = _run(
        [*REFOLD, "check", "--target", str(BROKEN), "--report-dir", "out", "--", "test_sample.py"],
        tmp_path,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    rows = {
        line.split()[0]: line.split()[1]
        for line in done.stdout.splitlines()
        if line.startswith("  ") and len(line.split()) > 1
    }
    assert rows["ENV-ID"] == "failed" and rows["CHOICE-FINISH"] == "failed"
    assert rows["TEXT-JOIN"] == "passed"
    assert "\x1b[" not in done.stdout  # not a terminal: no colour codes
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert results["rules"]["ENV-ID"]["status"] == "failed"
    assert (tmp_path / "out" / "report.html").is_file()  # rendered by refold.reports


def test_check_on_the_reference_exits_zero(tmp_path: Path) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    done = _run([*REFOLD, "check", "--", "test_sample.py"], tmp_path)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "rules: 3 passed" in done.stdout


def test_the_plugin_is_inert_in_an_unrelated_pytest_run(tmp_path: Path) -> None:
    (tmp_path / "test_plain.py").write_text("def test_plain():\n    assert 1 + 1 == 2\n")
    done = _run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_plain.py"], tmp_path
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "refold target" not in done.stdout and "results by feature" not in done.stdout
    assert not (tmp_path / "refold-replays").exists()
