"""The guard plugin of mutation runs: a mutant that breaks the harness while collecting ends
the run as an internal error (status 3, which mutmut counts as killed), not a usage error
(status 4, on which mutmut aborts the whole mutation run); a test overrunning its budget on a
mutant ends it with mutmut's timeout status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from refold.mutation._guard import MUTMUT_TIMEOUT_STATUS, budget_for

BROKEN_COLLECTION = """
import pytest

def pytest_collection_modifyitems(items):
    raise pytest.UsageError("the target could not be loaded")
"""


@pytest.mark.parametrize(
    ("plugins", "status"),
    [
        ([], 4),
        (["-p", "refold.mutation._guard"], 3),
    ],
)
def test_a_usage_error_while_collecting_becomes_an_internal_error(
    tmp_path: Path, plugins: list[str], status: int
) -> None:
    (tmp_path / "conftest.py").write_text(BROKEN_COLLECTION)
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert True\n")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *plugins,
            "--rootdir",
            str(tmp_path),
            str(tmp_path),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == status, run.stdout + run.stderr


SLOW_TEST = """
import time

def test_fast():
    assert True

def test_slow_on_the_mutant():
    time.sleep(2)
"""

SHORT_BUDGETS = """
import refold.mutation._guard as guard
guard._BUDGET_FLOOR_SECONDS = 0.5
"""


def _run_with_guard(tmp_path: Path, mutant: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "conftest.py").write_text(SHORT_BUDGETS)
    (tmp_path / "test_slow.py").write_text(SLOW_TEST)
    durations = {"test_slow.py::test_fast": 0.001, "test_slow.py::test_slow_on_the_mutant": 0.01}
    (tmp_path / "mutmut-stats.json").write_text(json.dumps({"duration_by_test": durations}))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "refold.mutation._guard",
            "--rootdir",
            str(tmp_path),
            str(tmp_path),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={**os.environ, "MUTANT_UNDER_TEST": mutant},
    )


def test_a_test_overrunning_its_budget_on_a_mutant_ends_the_run_as_a_mutmut_timeout(
    tmp_path: Path,
) -> None:
    run = _run_with_guard(tmp_path, "refold.reference._x.x_f__mutmut_1")
    assert run.returncode == MUTMUT_TIMEOUT_STATUS, run.stdout + run.stderr


@pytest.mark.parametrize("phase", ["", "fail", "stats"])
def test_the_unmutated_runs_are_never_timed(tmp_path: Path, phase: str) -> None:
    # mutmut's clean, forced-fail and stats runs happen in its own process: exiting it
    # from a timer would kill the whole mutation run.
    run = _run_with_guard(tmp_path, phase)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(("unmutated", "budget"), [(0.001, 5.0), (0.5, 5.0), (2.0, 20.0)])
def test_a_budget_is_ten_times_the_unmutated_time_and_at_least_five_seconds(
    unmutated: float, budget: float
) -> None:
    assert budget_for(unmutated) == budget
