"""Replay: every failed rule writes one scrubbed replay file, of the failure its verdict
rests on, and `pytest --replay` or `refold replay` re-runs exactly that case against any
target."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from refold.errors import UsageError
from refold.records.redaction import local_text
from refold.records.replay import (
    SCRUBBED,
    decode_failure,
    encode_failure,
    read_replay,
    recorded_dialect,
    scrub,
    write_replay,
)
from refold.reference import NOT_KEPT
from refold.run.checks import ConformanceFailure, format_chunks

ROOT = Path(__file__).resolve().parents[3]
BROKEN = ROOT / "examples" / "targets" / "broken_accumulator.py"
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]


def test_scrub_removes_credentials_and_provider_frames() -> None:
    value = {
        "api_key": "k",
        "Authorization": "x",
        "access_token": "t",
        "client_secret": "s",
        "opaque": {"frame": 1},
        "token": "Hello",
        "logprobs": {"content": [{"token": "Hello", "logprob": -0.5}]},
        "content": "key sk-abcdefghijklmnop1234 and Bearer abc.def.ghi123 end",
        "list": [{"x-api-key": "1"}, "plain"],
    }
    assert scrub(value) == {
        "api_key": SCRUBBED,
        "Authorization": SCRUBBED,
        "access_token": SCRUBBED,
        "client_secret": SCRUBBED,
        "opaque": NOT_KEPT,
        "token": SCRUBBED,
        "logprobs": {"content": [{"token": "Hello", "logprob": -0.5}]},
        "content": f"key {SCRUBBED} and {SCRUBBED} end",
        "list": [{"x-api-key": SCRUBBED}, "plain"],
    }


def test_a_replay_file_never_holds_a_credential(tmp_path: Path) -> None:
    chunks: list[Any] = [
        {
            "id": "c",
            "api_key": "sk-abcdefghijklmnopqrstu",
            "opaque": {"frame": "in-memory provider object"},
        }
    ]
    failure = ConformanceFailure(
        ("ENV-ID",), "differs", chunks=chunks, expected={"id": "c"}, received={"id": "d"}
    )
    path = write_replay(
        tmp_path, failure, target="t", test={"module": "m", "name": "n"}, hypothesis={}
    )
    text = path.read_text(encoding="utf-8")
    assert "sk-" not in text and "in-memory provider object" not in text
    assert read_replay(path)["chunks"] == [{"id": "c", "api_key": SCRUBBED, "opaque": NOT_KEPT}]


def test_a_replay_file_records_the_dialect_of_its_rules(tmp_path: Path) -> None:
    failure = ConformanceFailure(
        ("AM-LIFE-FINISHED",), "finished too early", chunks=[], expected=None, received=None
    )
    path = write_replay(
        tmp_path, failure, target="t", test={"module": "m", "name": "n"}, hypothesis={}
    )
    content = read_replay(path)
    assert content["dialect"] == "anthropic-messages"
    assert recorded_dialect(path, content).name == "anthropic-messages"
    chat = write_replay(
        tmp_path,
        ConformanceFailure(("ENV-ID",), "differs"),
        target="t",
        test={"module": "m", "name": "n"},
        hypothesis={},
    )
    assert read_replay(chat)["dialect"] == "openai-chat"


def test_a_replay_file_written_before_dialects_replays_as_openai_chat(tmp_path: Path) -> None:
    path = _replay_file(tmp_path, "reference")
    content = json.loads(path.read_text(encoding="utf-8"))
    del content["dialect"]  # as every file written before dialects
    path.write_text(json.dumps(content), encoding="utf-8")
    assert recorded_dialect(path, read_replay(path)).name == "openai-chat"


def test_a_replay_file_of_an_unknown_dialect_is_refused_naming_it(tmp_path: Path) -> None:
    path = _replay_file(tmp_path, "reference")
    content = json.loads(path.read_text(encoding="utf-8"))
    content["dialect"] = "gemini"
    path.write_text(json.dumps(content), encoding="utf-8")
    with pytest.raises(UsageError, match=r"records the dialect 'gemini'.*anthropic-messages"):
        recorded_dialect(path, read_replay(path))


def test_the_failure_record_crosses_from_a_worker_in_the_one_record_shape() -> None:
    failure = ConformanceFailure(
        ("ENV-ID",), "differs", chunks=[{"id": "a"}], expected={"id": "a"}, received={"id": "b"}
    )
    record = decode_failure(encode_failure(failure, replay_file="r.json"))
    assert record is not None
    assert set(record) == {
        "message",
        "chunks",
        "expected",
        "received",
        "pointer",
        "replay_file",
        "shape",
        "departures",
        "impact",
    }
    # a chunk without `choices` is a registered synthetic departure: nothing is shown
    # documented
    assert record["shape"] == "synthetic" and record["departures"] == ["CHAT-MISSING-KEY"]
    assert record["impact"] == "corruption"  # another id, read off expected and received
    assert decode_failure('{"chunks": []}') is None  # no message: not a failure record


def test_a_file_that_is_not_a_replay_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"chunks": []}', encoding="utf-8")
    with pytest.raises(UsageError, match="not a refold replay file"):
        read_replay(path)


@pytest.fixture(scope="module")
def failing_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workdir = tmp_path_factory.mktemp("replay")
    shutil.copy(SAMPLE_SUITE, workdir / "test_sample.py")
    done = subprocess.run(
        [*PYTEST, f"--target={BROKEN}", "test_sample.py"],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    assert "replay: refold replay refold-replays/" in done.stdout  # the compact console
    return workdir


def _replays(workdir: Path, test_name: str) -> Path:
    for path in sorted((workdir / "refold-replays").glob("*.json")):
        if json.loads(path.read_text(encoding="utf-8"))["test"]["name"] == test_name:
            return path
    raise AssertionError(f"no replay file for {test_name}")


def test_each_failed_rule_wrote_one_replay_file(failing_run: Path) -> None:
    # ENV-ID fails in two tests and CHOICE-FINISH in one: one file per failed rule, the
    # replay of the failure its verdict rests on (a file per failing test made 110 of them)
    files = list((failing_run / "refold-replays").glob("*.json"))
    rules = sorted(rule for p in files for rule in read_replay(p)["rules"])
    assert rules == ["CHOICE-FINISH", "ENV-ID"]
    replay = read_replay(next(p for p in files if read_replay(p)["rules"] == ["ENV-ID"]))
    assert replay["test"]["name"] in (
        "test_the_first_id_is_kept",
        "test_the_id_read_incrementally_is_the_first",
    )
    assert replay["target"] == local_text(str(BROKEN))  # `<checkout>/examples/...`
    assert replay["differences"][0]["pointer"] == "/id"
    assert replay["hypothesis"]["version"]


def test_pytest_replay_reproduces_the_failure_and_passes_on_a_fixed_target(
    failing_run: Path,
) -> None:
    path = next(
        p
        for p in (failing_run / "refold-replays").glob("*.json")
        if read_replay(p)["rules"] == ["ENV-ID"]
    )
    recorded = read_replay(path)["chunks"]
    again = subprocess.run(
        [*PYTEST, "--replay", str(path), "--target", str(BROKEN), "test_sample.py"],
        cwd=failing_run,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert again.returncode == 1, again.stdout[-3000:]
    assert "1 failed" in again.stdout and "deselected" in again.stdout
    assert json.dumps(recorded[-1]["id"]) in again.stdout
    fixed = subprocess.run(
        [*PYTEST, "--replay", str(path), "--target", "reference", "test_sample.py"],
        cwd=failing_run,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert fixed.returncode == 0, fixed.stdout[-3000:]


def test_refold_replay_runs_the_recorded_case(failing_run: Path) -> None:
    path = _replays(failing_run, "test_a_later_empty_finish_reason_erases_nothing")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "replay",
            "--target",
            str(BROKEN),
            str(path),
            "--",
            "test_sample.py",
        ],
        cwd=failing_run,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    assert "CHOICE-FINISH" in done.stdout


def _replay_file(tmp_path: Path, target: str) -> Path:
    """A replay file of the sample suite's CHOICE-FINISH test recording `target`."""
    failure = ConformanceFailure(
        ("CHOICE-FINISH",), "differs", chunks=[], expected={}, received={}, compared_fold=True
    )
    return write_replay(
        tmp_path,
        failure,
        target=target,
        test={"module": "test_sample", "name": "test_a_later_empty_finish_reason_erases_nothing"},
        hypothesis={},
    )


@pytest.mark.parametrize("command", ["pytest", "refold"])
def test_a_replay_file_alone_never_starts_a_process_or_imports_a_file(
    tmp_path: Path,
    command: str,
) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    ran, imported = tmp_path / "ran", tmp_path / "imported"
    (tmp_path / "evil.py").write_text(f"open({str(imported)!r}, 'w').close()\n", encoding="utf-8")
    for target in (f"exec:touch {ran}", str(tmp_path / "evil.py")):
        path = _replay_file(tmp_path / "replays", target)
        argv = (
            [*PYTEST, "--replay", str(path), "test_sample.py"]
            if command == "pytest"
            else [
                sys.executable,
                "-m",
                "refold.cli",
                "replay",
                str(path),
                "--",
                "test_sample.py",
            ]
        )
        done = subprocess.run(
            argv, cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False
        )
        assert done.returncode == 4, done.stdout[-3000:] + done.stderr[-3000:]
        said = " ".join((done.stdout + done.stderr).split())
        assert target in said and "--target" in said and "Traceback" not in said
        assert not ran.exists() and not imported.exists()


def test_a_replay_recording_the_reference_runs_it_without_target(tmp_path: Path) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    path = _replay_file(tmp_path, "reference")
    done = subprocess.run(
        [*PYTEST, "--replay", str(path), "test_sample.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    assert "CHOICE-FINISH" in done.stdout  # the recorded case: {} is not what it folds to


def test_a_replay_made_in_another_folder_says_its_relative_target_is_missing_here(
    tmp_path: Path,
) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    path = _replay_file(tmp_path, "pkg/mytarget.py")
    done = subprocess.run(
        [sys.executable, "-m", "refold.cli", "replay", str(path), "--", "test_sample.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 4, done.stdout[-3000:] + done.stderr[-3000:]
    said = " ".join((done.stdout + done.stderr).split())
    assert "pkg/mytarget.py" in said and "does not exist from" in said
    assert f"refold replay {path} --target" in said


LIVE_SNAPSHOT = ROOT / "examples" / "broken" / "live_snapshot.py"
LIFECYCLE = ROOT / "suites" / "test_lifecycle.py"


def test_a_lifecycle_replay_reruns_its_state_machine_with_the_recorded_blob(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [
            *PYTEST,
            f"--target={LIVE_SNAPSHOT}",
            "--hypothesis-profile=dev",
            "-k",
            "snapshot",
            str(LIFECYCLE),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    (path,) = (tmp_path / "refold-replays").glob("LIFE-SNAPSHOT-*.json")
    recorded = read_replay(path)
    assert recorded["hypothesis"]["reproduce_failure"] is not None
    replay = [
        sys.executable,
        "-m",
        "refold.cli",
        "replay",
        str(path),
        "--",
        str(LIFECYCLE),
    ]
    again = subprocess.run(
        [*replay[:4], "--target", str(LIVE_SNAPSHOT), *replay[4:]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert again.returncode == 1, again.stdout[-3000:]
    assert "InvalidArgument" not in again.stdout
    assert "chat.completion 0 changed after it was handed out" in again.stdout
    assert "found by a test of LIFE-SNAPSHOT" in again.stdout
    assert format_chunks(recorded["chunks"]) in "\n".join(
        line.removeprefix("E").strip() for line in again.stdout.splitlines()
    )
    fixed = subprocess.run(
        [*replay[:4], "--target", "reference", *replay[4:]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert fixed.returncode == 0, fixed.stdout[-3000:]
