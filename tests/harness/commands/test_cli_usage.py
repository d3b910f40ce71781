"""The `refold` command's papercuts: a mistake gets one paragraph saying what to do and
exit status 4 (pytest's usage error), a closed pipe ends the output quietly, and
`refold check` says which target and features it resolved before running."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from refold.cli import main
from refold.commands.check import PROFILES
from refold.reference.chat import FEATURES
from refold.run.profiles import register_profiles

ROOT = Path(__file__).resolve().parents[3]
REFOLD = [sys.executable, "-m", "refold.cli"]
USAGE_ERROR = 4


def _one_paragraph(text: str) -> str:
    assert "Traceback" not in text
    assert text.strip() and "\n\n" not in text.strip(), text
    return text


def test_pytest_options_given_before_the_double_dash_get_the_command_with_the_dash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "--target", "reference", "-k", "usage and null"]) == USAGE_ERROR
    err = _one_paragraph(capsys.readouterr().err)
    assert "pytest options go after `--`" in err
    assert "refold check --target reference -- -k 'usage and null'" in err


def test_an_unknown_profile_is_a_usage_error_that_lists_the_profiles(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "--profile", "fast"]) == USAGE_ERROR
    err = _one_paragraph(capsys.readouterr().err)
    assert "'fast'" in err
    assert all(name in err for name in ("dev", "ci", "nightly", "mutation"))


def test_the_profiles_check_accepts_are_the_ones_the_plugin_registers() -> None:
    from hypothesis import settings

    register_profiles()
    for name in PROFILES:
        settings.get_profile(name)  # raises InvalidArgument for an unregistered name


def test_rules_of_an_unknown_feature_is_a_usage_error_that_lists_the_features(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "--feature", "nope"]) == USAGE_ERROR
    err = _one_paragraph(capsys.readouterr().err)
    assert "'nope'" in err and all(feature in err for feature in FEATURES)


def test_rules_of_a_feature_without_rules_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--dialect", "openai-chat", "--feature", "events"]) == 0
    assert "no rules" in capsys.readouterr().out


def test_the_chat_feature_events_is_the_provider_events_contract(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # chat-fold.md's feature `events` became the contract of events.md (issue 14)
    assert main(["rules", "--feature", "events"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("provider-events: Provider-neutral events (events.md)")
    assert "EV-GRAMMAR" in out and "PERSIST-CANARY" in out


def test_a_closed_pipe_ends_the_output_quietly() -> None:
    # `refold rules | head`: the reader is gone before the command writes anything.
    with subprocess.Popen(
        [*REFOLD, "rules"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        err = process.stderr.read().decode()
        status = process.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert status == 141  # what a shell reports for a tool ended by SIGPIPE


def test_replay_help_says_the_target_defaults_to_the_recorded_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "default: the target recorded in the replay file" in out
    assert "default: reference" not in out


def test_check_names_the_resolved_target_features_and_dialect_before_the_run(
    tmp_path: Path,
) -> None:
    target = ROOT / "examples" / "broken" / "sum_usage.py"
    done = subprocess.run(
        [
            *REFOLD,
            "check",
            "--target",
            str(target),
            "--features",
            "text,usage",
            "--profile",
            "dev",
            "--replay-dir",
            "",
            "--",
            "-k",
            "test_cumulative_usage_on_every_chunk_is_never_summed",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = done.stdout.splitlines()
    assert lines[0] == f"refold target: sum_usage ({target}: Accumulator)", done.stdout[-2000:]
    assert lines[1] == "refold features: text, usage"
    assert lines[2] == "refold dialect: OpenAI Chat Completions (openai-chat, chat-fold.md)"
    assert "failed" in lines[-1]


def test_the_reference_target_is_described_by_its_public_name() -> None:
    from refold.targets import load_target

    target = load_target("reference", features=None, timeout=5.0)
    try:
        assert target.description.startswith("refold.reference.chat.Accumulator")
        assert "._" not in target.description  # no private module of the package
    finally:
        target.close()
