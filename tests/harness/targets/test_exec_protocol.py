"""exec: targets: the JSON-lines protocol, deadlines, crashes, and whole runs through it
(the Node.js example accumulator, and misbehaving processes the run survives)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from refold.errors import TargetError, UsageError
from refold.reference.chat import differences, fold
from refold.targets import RemoteTarget, load_target

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "examples" / "targets" / "protocol_server.py"
NODE_TARGET = ROOT / "examples" / "js" / "target.js"
CHUNKS = [{"id": "c1", "choices": [{"index": 0, "delta": {"content": "Hi"}}]}]


def _server(*faults: str) -> str:
    return "exec:" + shlex.join([sys.executable, str(SERVER), *faults])


@pytest.fixture
def faulty() -> RemoteTarget:
    target = load_target(
        _server(
            "--hang-on", "HANG", "--exit-on", "DIE", "--garble-on", "GARBLE", "--list-on", "LIST"
        ),
        timeout=1.0,
    )
    assert isinstance(target, RemoteTarget)
    yield target
    target.close()


def _chunk(content: str) -> list[object]:
    return [{"choices": [{"index": 0, "delta": {"content": content}}]}]


def test_hello_names_the_target_and_its_operations(faulty: RemoteTarget) -> None:
    assert faulty.name == "reference-over-protocol"
    assert "lifecycle" in faulty.features
    assert faulty.fold(CHUNKS)["choices"][0]["message"]["content"] == "Hi"


def test_the_incremental_operations_drive_one_accumulator(faulty: RemoteTarget) -> None:
    accumulator = faulty.accumulator()
    accumulator.add(CHUNKS[0])
    assert accumulator.finished() is False
    accumulator.mark_done()
    assert accumulator.finished() is True
    assert accumulator.response()["id"] == "c1"


def test_an_error_reply_is_a_raised_target_error(faulty: RemoteTarget) -> None:
    with pytest.raises(TargetError, match="ChunkTypeError") as excinfo:
        faulty.fold([[1, 2]])
    assert excinfo.value.kind == "raised"


def test_a_hung_process_is_killed_at_the_deadline_and_replaced(faulty: RemoteTarget) -> None:
    started = time.monotonic()
    with pytest.raises(TargetError, match="within 1 s") as excinfo:
        faulty.fold(_chunk("HANG"))
    assert excinfo.value.kind == "timeout"
    assert time.monotonic() - started < 5
    assert faulty.fold(CHUNKS)["id"] == "c1"


def test_a_process_that_exits_is_reported_with_its_stderr_and_replaced(
    faulty: RemoteTarget,
) -> None:
    with pytest.raises(TargetError, match="exited") as excinfo:
        faulty.fold(_chunk("DIE"))
    assert excinfo.value.kind == "crashed"
    assert "the target exited (status 3)" in str(excinfo.value)
    assert "exiting on purpose" in str(excinfo.value)
    assert faulty.fold(CHUNKS)["id"] == "c1"


def test_an_accumulator_of_a_replaced_process_fails_instead_of_misleading(
    faulty: RemoteTarget,
) -> None:
    accumulator = faulty.accumulator()
    accumulator.add(CHUNKS[0])
    with pytest.raises(TargetError):
        faulty.fold(_chunk("DIE"))
    with pytest.raises(TargetError, match="restarted") as excinfo:
        accumulator.response()
    assert excinfo.value.kind == "crashed"


def test_a_reply_that_is_not_json_is_a_protocol_failure(faulty: RemoteTarget) -> None:
    with pytest.raises(TargetError, match="not JSON") as excinfo:
        faulty.fold(_chunk("GARBLE"))
    assert excinfo.value.kind == "protocol"
    assert faulty.fold(CHUNKS)["id"] == "c1"


def test_a_reply_that_is_not_an_object_is_a_protocol_failure(faulty: RemoteTarget) -> None:
    with pytest.raises(TargetError, match="expected a JSON object") as excinfo:
        faulty.fold(_chunk("LIST"))
    assert excinfo.value.kind == "protocol"


def test_a_command_that_does_not_exist_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="cannot start"):
        load_target("exec:/nonexistent/refold-target")


def test_a_process_that_never_says_hello_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="did not answer hello"):
        load_target(f"exec:{sys.executable} -c 'import time; time.sleep(30)'", timeout=0.5)


def test_the_node_accumulator_folds_like_the_reference() -> None:
    target = load_target(f"exec:node {NODE_TARGET}", timeout=5.0)
    try:
        assert target.name == "refold-js-example"
        chunks = [
            {
                "id": "c",
                "choices": [
                    {
                        "index": 0,
                        "delta": {
                            "tool_calls": [
                                {
                                    "index": 0,
                                    "id": "t1",
                                    "function": {"name": "f", "arguments": '{"a": 1}'},
                                },
                                {"index": 0, "function": {"arguments": '{"b": 2}'}},
                            ]
                        },
                        "finish_reason": "tool_calls",
                    }
                ],
            }
        ]
        received = target.fold(chunks)
        assert [c["id"] for c in received["choices"][0]["message"]["tool_calls"]] == ["t1", None]
        assert differences(fold(chunks), received) == []
    finally:
        target.close()


def _run_pytest(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_suites_pass_on_the_node_accumulator(tmp_path: Path) -> None:
    report = tmp_path / "results.json"
    done = _run_pytest(
        [
            f"--target=exec:node {NODE_TARGET}",
            "--hypothesis-profile=dev",
            f"--refold-report={report}",
            "-q",
        ],
        tmp_path,
    )
    results = json.loads(report.read_text(encoding="utf-8"))
    failed = {r: e["reason"] for r, e in results["rules"].items() if e["status"] == "failed"}
    assert failed == {}, done.stdout[-3000:]
    assert done.returncode == 0, done.stdout[-3000:]
    assert results["target"]["name"] == "refold-js-example"
    claimed = {
        r for r, e in results["rules"].items() if e["feature"] in results["target"]["features"]
    }
    assert all(results["rules"][r]["status"] in ("passed", "xfailed", "not run") for r in claimed)


_MISBEHAVIOUR_SUITE = """
from refold.run.marks import rule

def _chunk(content):
    return [{"id": "c", "choices": [{"index": 0, "delta": {"content": content}}]}]

@rule("TEXT-JOIN")
def test_before(check):
    check.folds_like_reference(_chunk("fine"))

@rule("ENV-ID")
def test_hangs(check):
    check.folds_like_reference(_chunk("HANG"))

@rule("ENV-MODEL")
def test_dies(check):
    check.folds_like_reference(_chunk("DIE"))

@rule("ENV-OBJECT")
def test_after(check):
    check.folds_like_reference(_chunk("fine again"))
"""


def test_a_run_survives_a_hanging_and_a_crashing_target(tmp_path: Path) -> None:
    (tmp_path / "test_misbehaviour.py").write_text(textwrap.dedent(_MISBEHAVIOUR_SUITE))
    report = tmp_path / "results.json"
    started = time.monotonic()
    done = _run_pytest(
        [
            f"--target={_server('--hang-on', 'HANG', '--exit-on', 'DIE')}",
            "--target-timeout=1",
            f"--refold-report={report}",
            "test_misbehaviour.py",
        ],
        tmp_path,
    )
    assert time.monotonic() - started < 60
    assert done.returncode == 1, done.stdout[-3000:]
    rules = json.loads(report.read_text(encoding="utf-8"))["rules"]
    statuses = {r: rules[r]["status"] for r in ("TEXT-JOIN", "ENV-ID", "ENV-MODEL", "ENV-OBJECT")}
    assert statuses == {
        "TEXT-JOIN": "passed",
        "ENV-ID": "failed",
        "ENV-MODEL": "failed",
        "ENV-OBJECT": "passed",
    }
    assert "the target failed (timeout)" in rules["ENV-ID"]["failure"]["message"]
    assert "the target failed (crashed)" in rules["ENV-MODEL"]["failure"]["message"]
    assert rules["ENV-ID"]["failure"]["chunks"] == [
        {"id": "c", "choices": [{"index": 0, "delta": {"content": "HANG"}}]}
    ]
