"""A replay file is data from elsewhere: reading one never hangs, exhausts memory or ends in a
traceback; what is too large or too deep is refused in one paragraph, exit 4 (issue 25)."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from refold.errors import UsageError
from refold.records.replay import MAX_BLOB_CHOICE_BYTES, read_replay

_HEAD = {
    "refold_replay": 1,
    "dialect": "openai-chat",
    "target": "reference",
    "test": {"module": "suites/test_round_trip.py", "name": "test_x"},
    "rules": ["TEXT-JOIN"],
    "case": "test",
    "chunks": [],
    "expected": None,
}


def _replay(tmp_path: Path, **extra: object) -> Path:
    path = tmp_path / "case.json"
    path.write_text(json.dumps({**_HEAD, **extra}), encoding="utf-8")
    return path


def _refold_replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "refold.cli", "replay", str(path), "--target", "reference"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _bomb(size: int) -> str:
    return repr(base64.b64encode(b"\1" + zlib.compress(b"\0" * size, 9)))


def test_a_zlib_bomb_blob_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    path = _replay(
        tmp_path, hypothesis={"reproduce_failure": ["6.170.0", _bomb(100 * 1024 * 1024)]}
    )
    with pytest.raises(UsageError, match="decompresses to more than"):
        read_replay(path)


def test_an_oversize_blob_is_refused_by_its_length(tmp_path: Path) -> None:
    blob = repr(base64.b64encode(b"\0" + os.urandom(400 * 1024)))
    path = _replay(tmp_path, hypothesis={"reproduce_failure": ["6.170.0", blob]})
    with pytest.raises(UsageError, match=r"more than the .* a recorded failure's blob"):
        read_replay(path)


def test_a_blob_within_the_bound_still_reads(tmp_path: Path) -> None:
    from hypothesis.core import encode_failure

    blob = repr(encode_failure([0, 1, True, "x"]))
    assert len(zlib.compress(b"x")) < MAX_BLOB_CHOICE_BYTES
    path = _replay(tmp_path, hypothesis={"reproduce_failure": ["6.170.0", blob]})
    assert read_replay(path)["test"]["name"] == "test_x"


def test_a_deeply_nested_replay_is_one_paragraph_and_exit_4(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    text = json.dumps(_HEAD).replace('"chunks": []', '"chunks": ' + "[" * 100_000 + "]" * 100_000)
    path.write_text(text, encoding="utf-8")
    run = _refold_replay(path)
    assert run.returncode == 4, run.stderr
    assert "nests deeper than 128 levels" in run.stderr
    assert "Traceback" not in run.stderr + run.stdout and "RecursionError" not in run.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_replay_path_that_is_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    with pytest.raises(UsageError, match="named pipe"):
        read_replay(path)


def test_a_replay_linked_to_a_device_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "zero.json"
    path.symlink_to("/dev/zero")
    with pytest.raises(UsageError, match="character device"):
        read_replay(path)
