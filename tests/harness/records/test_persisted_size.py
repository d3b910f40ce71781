"""What refold keeps of a target's answer is bounded: a 10 MB string in the answer gives
files of bounded size that say how much was cut, and the answer's NaN and infinities are
written as strings, never as bare tokens no JSON reader accepts."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"
REFOLD = [sys.executable, "-m", "refold.cli"]

HUGE = """
from refold.reference.chat import fold as _fold

def fold(chunks):
    response = _fold(chunks)
    response["choices"][0]["message"]["content"] = "y" * (10 * 1024 * 1024)
    response["choices"][0]["logprobs"] = {"content": [
        {"token": "y", "logprob": float("nan")}, {"token": "z", "logprob": float("-inf")}]}
    response["usage"] = {"cost": float("inf")}
    return response
"""


@pytest.fixture(scope="module")
def huge_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workdir = tmp_path_factory.mktemp("huge")
    shutil.copy(SAMPLE_SUITE, workdir / "test_sample.py")
    (workdir / "huge.py").write_text(HUGE, encoding="utf-8")
    done = subprocess.run(
        [
            *REFOLD,
            "check",
            "--report-dir",
            "out",
            "--target",
            "huge.py",
            "--",
            "test_sample.py",
            "-k",
            "test_text_is_joined",
        ],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    assert len(done.stdout) < 1024 * 1024
    return workdir


def _written(workdir: Path) -> list[Path]:
    return [*(workdir / "out").iterdir(), *(workdir / "refold-replays").iterdir()]


def test_a_ten_megabyte_answer_gives_bounded_files_that_say_what_was_cut(huge_run: Path) -> None:
    files = _written(huge_run)
    assert len(files) >= 5
    sizes = {p.name: p.stat().st_size for p in files}
    assert max(sizes.values()) < 512 * 1024, sizes
    for path in files:
        if path.suffix in (".json", ".html", ".xml"):
            assert " bytes cut)" in path.read_text(encoding="utf-8"), path.name


def _strict(text: str) -> Any:
    def refuse(token: str) -> None:
        raise AssertionError(f"bare {token}")

    return json.loads(text, parse_constant=refuse)


def test_no_json_file_holds_a_bare_nan_or_infinity(huge_run: Path) -> None:
    for path in _written(huge_run):
        if path.suffix == ".json":
            _strict(path.read_text(encoding="utf-8"))
    [replay] = (huge_run / "refold-replays").glob("*.json")
    received = _strict(replay.read_text(encoding="utf-8"))["received"]
    assert [e["logprob"] for e in received["choices"][0]["logprobs"]["content"]] == [
        "NaN",
        "-Infinity",
    ]
    assert received["usage"] == {"cost": "Infinity"}
