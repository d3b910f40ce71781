"""The README's first command, `refold check --target reference`, works from any directory.

A regular (wheel) install lists `refold/__init__.py` among the files of a distribution with
a `pytest11` entry point, so pytest marks the `refold` package for assertion rewriting
while the `refold` command has already imported it. That warning must not exist, and the
pytest configuration of the directory `refold check` runs in (this checkout's
`filterwarnings = ["error"]`, or anyone's `addopts`) must not change or break the run.

The editable install of the dev venv lists no `refold/__init__.py`, so these tests put a
distribution on the path whose RECORD lists it, as a wheel install's does: the state in
which the first command crashed from the checkout root.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_ONE_TEST = "test_the_object_is_chat_completion_whatever_the_chunks_say"


def _wheel_like_site(directory: Path) -> Path:
    """A site folder with a pytest11 distribution whose RECORD lists refold/__init__.py."""
    site = directory / "site"
    info = site / "refold_wheel_like-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: refold-wheel-like\nVersion: 0.1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[pytest11]\nrefold_wheel_like = refold_wheel_like_plugin\n", encoding="utf-8"
    )
    (info / "RECORD").write_text(
        "refold/__init__.py,,\nrefold_wheel_like_plugin.py,,\n", encoding="utf-8"
    )
    (site / "refold_wheel_like_plugin.py").write_text('"""Empty."""\n', encoding="utf-8")
    return site


def _first_command(cwd: Path, site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "check",
            "--target",
            "reference",
            "--profile",
            "dev",
            "--replay-dir",
            "",
            "--",
            "-k",
            _ONE_TEST,
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("where", ["checkout root", "another folder"])
def test_the_first_command_runs_without_a_rewrite_warning_from_any_folder(
    tmp_path: Path, where: str
) -> None:
    site = _wheel_like_site(tmp_path)
    done = _first_command(ROOT if where == "checkout root" else tmp_path, site)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert "1 passed" in done.stdout
    assert "PytestAssertRewriteWarning" not in output and "Traceback" not in output


def test_the_pytest_configuration_of_the_current_folder_does_not_change_refold_check(
    tmp_path: Path,
) -> None:
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\naddopts = --no-such-option\nfilterwarnings = error\n", encoding="utf-8"
    )
    done = _first_command(tmp_path, _wheel_like_site(tmp_path))
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert "1 passed" in done.stdout
