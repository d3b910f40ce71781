"""`refold check --dialect NAME` and `refold baseline --dialect NAME`: the dialect goes to
pytest (`--dialect=NAME`); without it the target's declaration decides, else openai-chat;
an unknown dialect, or one the target does not fold, is a one-paragraph usage error
(exit 4); a baseline records the dialect its run checked."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from refold.cli import build_parser, main
from refold.commands.check import pytest_arguments

ROOT = Path(__file__).resolve().parents[3]
SUMS_USAGE = ROOT / "examples" / "broken" / "anthropic_sums_message_delta_usage.py"
REFOLD = [sys.executable, "-m", "refold.cli"]


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*REFOLD, *argv], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )


def test_check_and_baseline_pass_the_dialect_to_pytest_as_one_token() -> None:
    for command in (["check"], ["baseline", "--write", "b.toml"], ["replay", "r.json"]):
        args = build_parser().parse_args([*command, "--dialect", "anthropic-messages"])
        assert "--dialect=anthropic-messages" in pytest_arguments(args)
    plain = pytest_arguments(build_parser().parse_args(["check"]))
    assert not [a for a in plain if a.startswith("--dialect")]


@pytest.mark.parametrize("command", [["check"], ["baseline", "--write", "b.toml"]])
def test_an_unknown_dialect_is_a_usage_error_that_lists_the_dialects(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--dialect", "openai-messages"]) == 4
    message = capsys.readouterr().err
    assert "--dialect openai-messages" in message
    assert "openai-chat" in message and "anthropic-messages" in message
    assert len(message.strip().splitlines()) == 1 and "Traceback" not in message


def test_check_of_the_anthropic_dialect_runs_every_am_rule_on_its_reference(tmp_path: Path) -> None:
    done = _run(["check", "--dialect", "anthropic-messages", "--profile", "dev"], tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "refold dialect: Anthropic Messages (anthropic-messages" in done.stdout
    assert "rules: 45 passed" in done.stdout


def test_a_target_declaring_its_dialect_needs_no_dialect_option(tmp_path: Path) -> None:
    done = _run(
        ["check", "--target", str(SUMS_USAGE), "--profile", "dev", "--", "-k", "usage"], tmp_path
    )
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]
    rows = {
        line.split()[0]: line.split()[1]
        for line in done.stdout.splitlines()
        if line.startswith("  AM-") and len(line.split()) > 1
    }
    assert rows["AM-USAGE-REPLACE"] == "failed", done.stdout[-3000:]


def test_checking_a_target_against_another_dialect_is_a_one_paragraph_usage_error(
    tmp_path: Path,
) -> None:
    done = _run(
        ["check", "--dialect", "openai-chat", "--target", str(SUMS_USAGE), "--profile", "dev"],
        tmp_path,
    )
    assert done.returncode == 4, done.stdout[-3000:] + done.stderr[-2000:]
    message = (done.stdout + done.stderr).strip()
    assert "anthropic-messages" in message and "openai-chat" in message
    assert len(message.splitlines()) == 1 and "Traceback" not in message


def test_a_baseline_written_with_a_dialect_records_it(tmp_path: Path) -> None:
    done = _run(
        [
            "baseline",
            "--dialect",
            "anthropic-messages",
            "--write",
            "b.toml",
            "--profile",
            "dev",
            "--",
            "-k",
            "message_start",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    written = tomllib.loads((tmp_path / "b.toml").read_text(encoding="utf-8"))
    assert written["dialect"] == "anthropic-messages", written
