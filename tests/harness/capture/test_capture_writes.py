"""`refold capture` writes only inside its corpus, never through a planted link, never over a
case without `--force`, and refuses SSE whose last event no blank line ends (issue 25)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from refold.capture.captures import capture, case_name
from refold.capture.input import CaptureError

SOURCES = Path(__file__).resolve().parents[3] / "examples" / "corpus" / "sources"
TEXT = SOURCES / "anthropic-text.sse"


def _refold(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "refold.cli", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("../../escaped", "escaped"),
        ("/etc/passwd", "etc-passwd"),
        (".hidden", "hidden"),
        ("a b\\c", "a-b-c"),
        ("", "case"),
        ("...", "case"),
        ("ok-name_1.2", "ok-name_1.2"),
    ],
)
def test_a_case_name_is_a_plain_file_name(raw: str, safe: str) -> None:
    assert case_name(raw) == safe


def test_a_name_with_path_separators_writes_inside_the_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "deep" / "corpus"
    done = _refold(
        "capture", str(TEXT), "--corpus", str(corpus), "--name", "../../escaped", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert (corpus / "escaped.json").is_file()
    assert not (tmp_path / "escaped.json").exists()
    assert sorted(p.name for p in tmp_path.rglob("*.json")) == ["escaped.json"]


def test_an_existing_case_is_not_overwritten_without_force(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    capture(TEXT, corpus)
    before = (corpus / "anthropic-text.json").read_bytes()
    with pytest.raises(CaptureError, match="exists; a case is never overwritten"):
        capture(TEXT, corpus)
    assert (corpus / "anthropic-text.json").read_bytes() == before
    done = _refold("capture", str(TEXT), "--corpus", str(corpus), cwd=tmp_path)
    assert done.returncode == 4 and "--force" in done.stderr
    forced = _refold("capture", str(TEXT), "--corpus", str(corpus), "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr


def test_a_symlink_planted_in_the_corpus_never_has_its_target_written(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (corpus / "anthropic-text.json").symlink_to(victim)
    with pytest.raises(CaptureError, match="exists"):
        capture(TEXT, corpus)
    capture(TEXT, corpus, force=True)
    assert victim.read_text() == "precious"
    assert not (corpus / "anthropic-text.json").is_symlink()


def test_sse_whose_events_no_blank_line_separates_is_refused_naming_the_event(
    tmp_path: Path,
) -> None:
    source = tmp_path / "cut.sse"
    joined = "\n".join(line for line in TEXT.read_text().splitlines() if line)
    source.write_text(joined + "\n")
    done = _refold("capture", str(source), "--corpus", str(tmp_path / "corpus"), cwd=tmp_path)
    assert done.returncode == 4, done.stdout
    assert "no blank line ends (it starts at line 1: 'event: message_start')" in done.stderr
    assert not (tmp_path / "corpus").exists()


def test_an_sse_capture_whose_last_event_is_cut_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "cut.sse"
    shutil.copy(TEXT, source)
    source.write_text(source.read_text().rstrip("\n") + "\n")
    with pytest.raises(CaptureError, match=r"starts at line \d+: 'event: message_stop'"):
        capture(source, tmp_path / "corpus")
