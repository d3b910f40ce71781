"""Options and files a user gets wrong are refused before the run: one paragraph on
stderr or in pytest's usage error, exit status 4 (pytest's USAGE_ERROR), no traceback and
no INTERNALERROR, and nothing run first."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"
REFOLD = [sys.executable, "-m", "refold.cli"]
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]


def _refused(argv: list[str], cwd: Path, *expected: str) -> str:
    """Run `argv`; assert it is refused as a usage error naming `expected`; the output."""
    shutil.copy(SAMPLE_SUITE, cwd / "test_sample.py")
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 4, output[-3000:]
    assert "Traceback" not in output and "INTERNALERROR" not in output, output[-3000:]
    assert "passed" not in done.stdout and "failed" not in done.stdout, output[-3000:]
    for phrase in expected:
        assert phrase in output, output[-3000:]
    return output


def test_a_baseline_that_is_not_utf8_is_refused_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "b.toml").write_bytes(b'target = "reference"\n# caf\xe9\n')
    _refused(
        [*REFOLD, "check", "--baseline", "b.toml", "--", "test_sample.py"],
        tmp_path,
        "b.toml",
        "UTF-8",
        "byte 0xe9",
    )


@pytest.mark.parametrize("seconds", ["-1", "0", "inf", "nan"])
def test_a_target_timeout_that_is_not_a_positive_number_is_refused(
    tmp_path: Path,
    seconds: str,
) -> None:
    _refused(
        [*REFOLD, "check", "--target-timeout", seconds, "--", "test_sample.py"],
        tmp_path,
        f"--target-timeout {seconds}",
        "expected a number of seconds",
    )


@pytest.mark.parametrize("seconds", ["inf", "nan"])
def test_shrink_seconds_that_are_not_finite_are_refused(tmp_path: Path, seconds: str) -> None:
    _refused(
        [*REFOLD, "check", "--shrink-seconds", seconds, "--", "test_sample.py"],
        tmp_path,
        f"--shrink-seconds {seconds}",
    )


def _replay_file(tmp_path: Path, blob: object) -> Path:
    path = tmp_path / "ENV-ID-bad.json"
    path.write_text(
        json.dumps(
            {
                "refold_replay": 1,
                "target": "reference",
                "test": {"module": "test_sample", "name": "test_the_first_id_is_kept"},
                "chunks": None,
                "expected": None,
                "received": None,
                "hypothesis": {"version": "6.0.0", "reproduce_failure": blob, "seed": None},
            }
        )
    )
    return path


@pytest.mark.parametrize(
    "blob",
    [
        ["6.0.0", "not a bytes literal"],
        ["6.0.0", "b'\\x'"],
        ["6.0.0", "'text, not bytes'"],
        ["6.0.0", "b'!!!'"],
        "AXicY2BgAAAABAAB",
    ],
)
@pytest.mark.parametrize("command", ["refold", "pytest"])
def test_a_replay_file_whose_blob_does_not_parse_is_refused(
    tmp_path: Path,
    blob: object,
    command: str,
) -> None:
    path = _replay_file(tmp_path, blob)
    argv = (
        [*REFOLD, "replay", str(path), "--", "test_sample.py"]
        if command == "refold"
        else [*PYTEST, "--replay", str(path), "test_sample.py"]
    )
    _refused(argv, tmp_path, str(path), "reproduce_failure")


def test_a_report_dir_that_is_a_file_is_refused_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("not a folder")
    _refused(
        [*REFOLD, "check", "--report-dir", "out", "--", "test_sample.py"],
        tmp_path,
        "--report-dir out",
        "is a file",
    )


def test_a_report_file_that_is_a_folder_is_refused_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "r.json").mkdir()
    _refused(
        [*REFOLD, "check", "--report", "r.json", "--", "test_sample.py"],
        tmp_path,
        "r.json",
        "is a folder",
    )


def test_a_report_under_a_file_is_refused_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("a file, not a folder")
    _refused(
        [*PYTEST, "--target", "reference", "--refold-report", "plain/r.json", "test_sample.py"],
        tmp_path,
        "--refold-report plain/r.json",
        "is a file",
    )


def test_a_replay_dir_that_is_a_file_is_refused_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "replays").write_text("a file")
    _refused(
        [*REFOLD, "check", "--replay-dir", "replays", "--", "test_sample.py"],
        tmp_path,
        "--replay-dir replays",
        "is a file",
    )


def test_a_baseline_to_write_into_a_folder_is_refused_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "b.toml").mkdir()
    _refused(
        [*REFOLD, "baseline", "--write", "b.toml", "--", "test_sample.py"],
        tmp_path,
        "--write b.toml",
        "is a folder",
    )


@pytest.mark.parametrize("command", ["check", "baseline", "pytest"])
def test_a_fail_on_that_is_not_a_shape_is_refused_before_the_run(
    tmp_path: Path, command: str
) -> None:
    argv = (
        [*PYTEST, "--target", "reference", "--fail-on", "doc", "test_sample.py"]
        if command == "pytest"
        else [
            *REFOLD,
            command,
            "--fail-on",
            "doc",
            *(["--write", "b.toml"] if command == "baseline" else []),
            "--",
            "test_sample.py",
        ]
    )
    _refused(argv, tmp_path, "--fail-on 'doc'", "documented, observed, synthetic")
