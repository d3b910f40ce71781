"""A corpus is data from elsewhere: only regular files are read, each with a bounded read,
and the rest is refused with its path (issue 25)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from refold.capture.corpus import load_corpus
from refold.errors import UsageError

STARTER = Path(__file__).resolve().parents[3] / "examples" / "corpus"


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(STARTER / "anthropic-text.json", corpus)
    return corpus


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_fifo_in_a_corpus_is_refused_with_its_path_and_never_waited_on(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    os.mkfifo(corpus / "pipe.json")
    done = subprocess.run(
        [sys.executable, "-m", "refold.cli", "check", "--corpus", str(corpus)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"case file {corpus / 'pipe.json'} is a named pipe (FIFO)" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_case_linked_to_dev_zero_is_refused_unread(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    (corpus / "zero.json").symlink_to("/dev/zero")
    with pytest.raises(UsageError, match="is a character device, not a regular file"):
        load_corpus(corpus)


def test_a_case_folder_named_like_a_case_is_refused(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    (corpus / "odd.json").mkdir()
    with pytest.raises(UsageError, match="is a folder, not a regular file"):
        load_corpus(corpus)
