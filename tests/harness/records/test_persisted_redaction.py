"""This machine's secrets and paths are never persisted (`refold.records.redaction`): every value of
the harness's environment at least 8 characters long is a planted canary, the worker token
is one too, and local paths are shown relative to a named root (`<site-packages>`,
`<checkout>`, `<home>`, `<python>`), in results.json, replay files, the reports and
baselines."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import refold
from refold.cli import main
from refold.records import redaction
from refold.records.replay import write_replay
from refold.records.report import write_report
from refold.reference import REDACTED
from refold.reference.chat import RULES
from refold.run.checks import ConformanceFailure

ROOT = Path(__file__).resolve().parents[3]
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"
CANARY = "upstream-pass-CANARY-7f3a"
SITE = sysconfig.get_paths()["purelib"]


@pytest.fixture
def fresh_redaction(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """The environment is read once per process: read it again for this test, and after."""
    redaction.current.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    redaction.current.cache_clear()


def _results(message: str) -> dict[str, Any]:
    rule = next(iter(RULES.values()))
    return {
        "refold_version": "0.1.0",
        "target": {"name": "t", "description": message, "features": ["text"]},
        "versions": {},
        "started": "2026-11-30T01:00:00+00:00",
        "duration_seconds": 2.0,
        "hypothesis_profile": "ci",
        "rules": {
            rule.id: {
                "feature": rule.feature,
                "statement": rule.statement,
                "status": "failed",
                "tests": 1,
                "reason": None,
                "failure": {
                    "message": message,
                    "chunks": [{"id": message}],
                    "expected": 1,
                    "received": message,
                    "pointer": "/id",
                },
            }
        },
        "totals": {"failed": 1},
    }


def _written(directory: Path) -> dict[str, str]:
    return {
        path.relative_to(directory).as_posix(): path.read_text(encoding="utf-8")
        for path in directory.rglob("*")
        if path.is_file()
    }


def test_a_canary_env_value_in_a_failure_never_reaches_results_or_replay(
    fresh_redaction: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fresh_redaction.setenv("MY_UPSTREAM", CANARY)
    message = f"the target answered {CANARY}!"
    failure = ConformanceFailure(
        ("ENV-ID",),
        message,
        chunks=[{"id": CANARY}],
        expected={"id": "c"},
        received={"id": message},
    )
    replay = write_replay(
        tmp_path / "replays", failure, target="t", test={"module": "m", "name": "n"}, hypothesis={}
    )
    write_report(_results(message), tmp_path / "results.json")
    main(["report", str(tmp_path / "results.json"), "--out", str(tmp_path / "rendered")])
    written = _written(tmp_path)
    assert {
        "results.json",
        "rendered/report.html",
        "rendered/results.json",
        "rendered/junit.xml",
        "rendered/summary.md",
        f"replays/{replay.name}",
    } <= set(written)
    assert [name for name, text in written.items() if "CANARY-7f3a" in text] == []
    assert f"the target answered {REDACTED}!" in written[f"replays/{replay.name}"]
    assert f"the target answered {REDACTED}!" in written["results.json"]


def test_env_values_shorter_than_8_characters_and_common_values_are_untouched(
    fresh_redaction: pytest.MonkeyPatch,
) -> None:
    for name, value in {
        "SHORT_ONE": "abc1234",
        "A_FLAG": "true",
        "A_NUMBER": "123456789",
        "A_LOCALE": "en_US.UTF-8",
        "A_TERM": "xterm-256color",
        "A_NAME": "anthropic",
        "A_PATH": "/opt/x/bin:/usr/local/bin",
    }.items():
        fresh_redaction.setenv(name, value)
    text = "abc1234 true 123456789 en_US.UTF-8 xterm-256color anthropic"
    assert redaction.persisted_text(text) == text


def test_refold_and_pytest_configuration_in_the_environment_is_no_canary(
    fresh_redaction: pytest.MonkeyPatch,
) -> None:
    # the strength tests select rules through REFOLD_ONLY_RULES: a canary there blanked
    # the rule ids of every document they read
    fresh_redaction.setenv("REFOLD_ONLY_RULES", "RS-ANNOTATIONS RS-REFUSAL")
    fresh_redaction.setenv("PYTEST_ADDOPTS", "-p no:langsmith_plugin")
    fresh_redaction.setenv("MY_UPSTREAM", "upstream-pass-CANARY")
    text = "RS-ANNOTATIONS RS-REFUSAL failed; -p no:langsmith_plugin; upstream-pass-CANARY"
    assert redaction.persisted_text(text) == (
        "RS-ANNOTATIONS RS-REFUSAL failed; -p no:langsmith_plugin; [redacted]"
    )


def test_a_site_packages_path_becomes_relative_to_site_packages() -> None:
    frame = f'File "{SITE}/openai/lib/streaming.py", line 12'
    assert (
        redaction.persisted_text(frame) == 'File "<site-packages>/openai/lib/streaming.py", line 12'
    )


def test_a_path_under_the_checkout_becomes_relative_to_the_checkout() -> None:
    checkout = Path(refold.__file__).resolve().parent.parent
    assert (
        redaction.persisted_text(f"at {checkout}/harness/run/plugin.py:3")
        == "at <checkout>/harness/run/plugin.py:3"
    )


def test_a_root_inside_a_longer_word_or_path_is_not_rewritten() -> None:
    checkout = str(Path(refold.__file__).resolve().parent.parent)
    for text in (
        f"x{checkout}/harness/a.py",
        f"/elsewhere{checkout}/a",
        f"{checkout}extra/a.py",
        f"{checkout}-copy/a.py",
    ):
        assert redaction.persisted_text(text) == text
    assert "<site-packages>" not in redaction.persisted_text(f"{SITE}2/x.py")


def test_another_machines_paths_become_relative_to_their_kind_of_root() -> None:
    text = (
        "/opt/odd.place-42/ck/.venv/lib/python3.11/site-packages/openai/x.py "
        "/opt/odd.place-42/ck/harness/run/plugin.py /home/someone/notes.txt"
    )
    assert redaction.persisted_text(text) == (
        "<site-packages>/openai/x.py <checkout>/harness/run/plugin.py <home>/notes.txt"
    )


def test_the_worker_token_is_a_canary_in_the_process_that_made_it() -> None:
    from refold.targets.process_tree import ProcessTree

    token = ProcessTree().token
    assert redaction.persisted_text(f"leaked {token}.") == f"leaked {REDACTED}."


def test_reports_regenerated_from_results_holding_the_checkout_path_hold_it_nowhere(
    tmp_path: Path,
) -> None:
    checkout = str(Path(refold.__file__).resolve().parent.parent)
    odd = "/srv/an-unusual.checkout_9/refold"
    message = (
        f'Traceback:\n  File "{checkout}/harness/run/plugin.py", line 3\n'
        f'  File "{SITE}/openai/_streaming.py", line 9\n'
        f'  File "{odd}/.venv/lib/python3.11/site-packages/httpx/_client.py"\n'
        f'  File "{odd}/reference/_fold.py", line 5'
    )
    source = tmp_path / "results.json"
    source.write_text(json.dumps(_results(message)), encoding="utf-8")
    assert main(["report", str(source), "--out", str(tmp_path / "out")]) == 0
    written = _written(tmp_path / "out")
    assert {"results.json", "report.html", "junit.xml", "summary.md"} <= set(written)
    for name, text in written.items():
        assert checkout not in text and SITE not in text and odd not in text, name
    assert "<checkout>/harness/run/plugin.py" in written["results.json"]
    assert "<site-packages>/httpx/_client.py" in written["results.json"]


HOSTILE = f"""
import refold
from refold.reference.chat import fold as _fold

def _answer(chunks):
    response = _fold(chunks)
    response["choices"][0]["message"]["content"] = (
        "env {CANARY} short abc1234 at " + refold.__file__)
    return response

refold_target = {{"name": "leaky", "fold": _answer, "features": ["text", "choices"]}}
"""


@pytest.mark.parametrize("verbose", [[], ["-v"]], ids=["compact", "verbose"])
def test_a_check_run_persists_and_prints_no_canary_and_no_checkout_path(
    tmp_path: Path, verbose: list[str]
) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    (tmp_path / "leaky.py").write_text(HOSTILE, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "check",
            *verbose,
            "--report-dir",
            "out",
            "--target",
            "leaky.py",
            "--",
            "test_sample.py",
            "-k",
            "test_text_is_joined",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "MY_UPSTREAM": CANARY},
    )
    console = done.stdout + done.stderr
    assert done.returncode in (0, 1), console[-6000:]
    results = (tmp_path / "out" / "results.json").read_text(encoding="utf-8")
    assert json.loads(results)["rules"]["TEXT-JOIN"]["status"] == "failed"
    assert "abc1234" in results  # a short value is kept
    checkout = str(Path(refold.__file__).resolve().parent.parent)
    written = {**_written(tmp_path / "out"), **_written(tmp_path / "refold-replays")}
    assert len(written) >= 5
    for name, text in written.items():
        assert "CANARY-7f3a" not in text and checkout not in text, name
    assert "<checkout>/harness/__init__.py" in results
    assert "CANARY-7f3a" not in console and checkout not in console, console[-6000:]
    assert "<checkout>/harness/__init__.py" in console


def test_a_baseline_keeps_its_target_path_but_no_canary_nor_local_path_in_a_reason(
    fresh_redaction: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from refold.commands.baseline import _write
    from refold.gate.baseline import Baseline, load_baseline

    fresh_redaction.setenv("MY_UPSTREAM", CANARY)
    checkout = str(Path(refold.__file__).resolve().parent.parent)
    target = f"{checkout}/examples/targets/broken_accumulator.py"
    baseline = Baseline(
        path="b.toml",
        target=target,
        expected_failures={"ENV-ID": f"raised in {checkout}/harness/run/plugin.py with {CANARY}"},
    )
    _write(
        str(tmp_path / "b.toml"), baseline, {"target": {"description": f"described with {CANARY}"}}
    )
    text = (tmp_path / "b.toml").read_text(encoding="utf-8")
    assert "CANARY-7f3a" not in text
    loaded = load_baseline(tmp_path / "b.toml")
    assert loaded.target == target  # a gate run without --target still finds it
    assert (
        loaded.expected_failures["ENV-ID"]
        == f"raised in <checkout>/harness/run/plugin.py with {REDACTED}"
    )
