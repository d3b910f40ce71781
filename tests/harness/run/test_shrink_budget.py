"""`--shrink-seconds` caps how long Hypothesis shrinks each failing example."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from refold.cli import build_parser
from refold.commands.check import pytest_arguments

READS_THE_CAP = """
from hypothesis.internal.conjecture import engine

def test_the_cap_is_set():
    assert engine.MAX_SHRINKING_SECONDS == 7
"""


def _pytest(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_cap.py").write_text(READS_THE_CAP)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            *options,
            str(tmp_path),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_option_sets_hypothesis_shrinking_cap_for_the_run(tmp_path: Path) -> None:
    run = _pytest(tmp_path, "--shrink-seconds", "7")
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_cap_that_is_not_positive_is_a_usage_error(tmp_path: Path) -> None:
    run = _pytest(tmp_path, "--shrink-seconds", "0")
    assert run.returncode == 4
    assert "--shrink-seconds 0: expected a number of seconds above zero" in run.stderr


def test_refold_check_passes_the_cap_to_pytest() -> None:
    argv = pytest_arguments(build_parser().parse_args(["check", "--shrink-seconds", "20"]))
    assert "--shrink-seconds=20.0" in argv


_SUITE = """
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import engine

from refold.run.checks import Check, ConformanceFailure
from refold.run.marks import rule
from refold.reference import Difference

LOG = Path(__file__).with_name("log.jsonl")


def _log(test, **details):
    with LOG.open("a") as log:
        log.write(json.dumps({"test": test, **details}) + "\\n")


@rule("TEXT-JOIN")
@given(st.integers())
def test_a_property_of_a_rule_nothing_failed_yet(check: Check, x: int) -> None:
    _log("fresh", phases=[p.name for p in settings.default.phases],
         cap=engine.MAX_SHRINKING_SECONDS)
    assert x < 5


@rule("ENV-ID")
@given(st.integers())
def test_a_property_of_a_rule_an_example_already_failed(check: Check, x: int) -> None:
    _log("known", phases=[p.name for p in settings.default.phases],
         cap=engine.MAX_SHRINKING_SECONDS)
    raise check.fail("fails on purpose")


@rule("ENV-ID")
@given(st.integers())
def test_a_property_of_a_failed_rule_that_finds_a_new_one(check: Check, x: int) -> None:
    _log("new", phases=[p.name for p in settings.default.phases],
         cap=engine.MAX_SHRINKING_SECONDS)
    raise ConformanceFailure(("ENV-ID",), "usage differs",
                             differences=[Difference("/usage", None, {"total_tokens": x})])


@rule("ENV-ID")
def test_an_example_of_the_rule(check: Check) -> None:
    _log("example", cap=engine.MAX_SHRINKING_SECONDS)
    raise check.fail("fails on purpose")
"""


def _suite_run(tmp_path: Path, *options: str) -> list[dict[str, object]]:
    import json

    (tmp_path / "test_suite.py").write_text(_SUITE)
    done = subprocess.run(
        # --tb: pytest's own failure sections, which a refold run's compact console leaves out
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "--tb=long",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            "--target",
            "reference",
            "--replay-dir",
            "",
            *options,
            str(tmp_path / "test_suite.py"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    (tmp_path / "output.txt").write_text(done.stdout)
    lines = (tmp_path / "log.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_a_refold_run_caps_shrinking_by_default(tmp_path: Path) -> None:
    from refold.run.profiles import DEFAULT_SHRINK_SECONDS

    log = _suite_run(tmp_path)
    assert [e["cap"] for e in log if e["test"] == "example"] == [DEFAULT_SHRINK_SECONDS]


def test_the_dev_profile_shrinks_for_less_time(tmp_path: Path) -> None:
    from refold.run.profiles import DEV_SHRINK_SECONDS

    log = _suite_run(tmp_path, "--hypothesis-profile", "dev")
    assert [e["cap"] for e in log if e["test"] == "example"] == [DEV_SHRINK_SECONDS]


def test_a_given_cap_overrides_the_default(tmp_path: Path) -> None:
    log = _suite_run(tmp_path, "--shrink-seconds", "3")
    assert [e["cap"] for e in log if e["test"] == "example"] == [3]


def test_examples_run_before_the_property_tests(tmp_path: Path) -> None:
    log = _suite_run(tmp_path)
    assert log[0]["test"] == "example"
    assert {e["test"] for e in log[1:]} == {"fresh", "known", "new"}


def test_a_property_whose_rules_all_failed_already_is_not_shrunk(tmp_path: Path) -> None:
    log = _suite_run(tmp_path)
    known = [e for e in log if e["test"] == "known"]
    assert all(e["cap"] == 0 for e in known)
    fresh = [e["cap"] for e in log if e["test"] == "fresh"]
    assert fresh and all(cap > 0 for cap in fresh)
    output = (tmp_path / "output.txt").read_text()
    assert output.count("not shrunk: every rule of this test (ENV-ID) had already failed") == 1


def test_a_first_failure_that_implicates_a_rule_not_failed_yet_is_searched_in_full(
    tmp_path: Path,
) -> None:
    log = _suite_run(tmp_path)
    caps = [e["cap"] for e in log if e["test"] == "new"]
    assert caps[0] == 0  # not shrunk at first, but its failure implicates USAGE-LAST
    assert caps[-1] > 0  # so searched again, shrinking
    output = (tmp_path / "output.txt").read_text()
    assert "usage differs" in output


def test_no_property_runs_the_explain_phase(tmp_path: Path) -> None:
    log = _suite_run(tmp_path)
    assert all("explain" not in e["phases"] for e in log if "phases" in e)


def test_a_shrink_stopped_by_refolds_budget_is_not_reported_as_five_slow_minutes(
    tmp_path: Path,
) -> None:
    broken = Path(__file__).resolve().parents[3] / "examples" / "broken" / "sum_usage.py"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "check",
            "--target",
            str(broken),
            "--profile",
            "dev",
            "--shrink-seconds",
            "0.01",
            "-v",
            "--",
            "-k",
            "moving_the_usage",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-2000:]
    assert "five minutes" not in run.stdout and "PLEASE REPORT THIS" not in run.stdout
    assert "refold: shrinking stopped at this run's budget (0.01 s" in run.stdout
