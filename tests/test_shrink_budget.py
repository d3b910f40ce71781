"""`--shrink-seconds` caps how long Hypothesis shrinks each failing example."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from refold.cli import build_parser
from refold.commands.check import pytest_arguments

READS_THE_CAP = '''
from hypothesis.internal.conjecture import engine

def test_the_cap_is_set():
    assert engine.MAX_SHRINKING_SECONDS == 7
'''


def _pytest(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_cap.py").write_text(READS_THE_CAP)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), *options, str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True, check=False)


def test_the_option_sets_hypothesis_shrinking_cap_for_the_run(tmp_path: Path) -> None:
    run = _pytest(tmp_path, "--shrink-seconds", "7")
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_cap_that_is_not_positive_is_a_usage_error(tmp_path: Path) -> None:
    run = _pytest(tmp_path, "--shrink-seconds", "0")
    assert run.returncode == 4
    assert "--shrink-seconds 0.0: expected seconds > 0" in run.stderr


def test_refold_check_passes_the_cap_to_pytest() -> None:
    argv = pytest_arguments(build_parser().parse_args(["check", "--shrink-seconds", "20"]))
    assert argv[argv.index("--shrink-seconds") + 1] == "20.0"
