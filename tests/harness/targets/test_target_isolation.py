"""A Python target can change the verdict only through its answers: it runs in a worker
process (refold.targets.worker), so exiting, crashing, hanging, interrupting or patching the
harness fails the rule under test, and a fresh worker serves the next test. Each hostile
target is written here, in tmp_path."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import _pytest.python
import pytest

import refold.run.checks
from refold.errors import TargetError, UsageError
from refold.run.checks import Check, ConformanceFailure
from refold.targets import Target, load_target

CHUNKS = [
    {"id": "c1", "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}]}
]


def _target_file(tmp_path: Path, source: str, name: str = "hostile.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return str(path)


def _isolated(tmp_path: Path, source: str, timeout: float = 5.0) -> Target:
    return load_target(_target_file(tmp_path, source), isolated=True, timeout=timeout)


def _content(text: str) -> list[object]:
    return [{"id": "c", "choices": [{"index": 0, "delta": {"content": text}}]}]


def test_an_isolated_target_folds_like_the_in_process_one() -> None:
    target = load_target("reference", isolated=True)
    try:
        in_process = load_target("reference")
        assert target.features == in_process.features and "sse" in target.features
        assert target.fold(CHUNKS) == in_process.fold(CHUNKS)
        assert target.sse is not None and in_process.sse is not None
        parts = [b"data: a\r", b"\n\nid: 7\nretry: 30\ndata: b\n\n"]
        assert target.sse(parts) == in_process.sse(parts)
    finally:
        target.close()


def test_os_exit_at_the_first_call_fails_that_call_and_every_fresh_worker_too(
    tmp_path: Path,
) -> None:
    target = _isolated(
        tmp_path,
        """
        import os
        def fold(chunks):
            os._exit(0)
    """,
    )
    try:
        for _ in range(2):  # the second call is served by a fresh worker
            with pytest.raises(TargetError, match=r"the target exited \(status 0\)") as info:
                target.fold(CHUNKS)
            assert info.value.kind == "crashed"
    finally:
        target.close()


def test_os_exit_at_the_fiftieth_call_fails_it_and_a_fresh_worker_serves_the_next(
    tmp_path: Path,
) -> None:
    target = _isolated(
        tmp_path,
        """
        import os
        from refold.reference.chat import fold as _fold
        calls = 0
        def fold(chunks):
            global calls
            calls += 1
            if calls == 50:
                os._exit(0)
            return _fold(chunks)
    """,
    )
    try:
        for _ in range(49):
            target.fold(CHUNKS)
        with pytest.raises(TargetError, match=r"the target exited \(status 0\)"):
            target.fold(CHUNKS)
        assert target.fold(CHUNKS)["id"] == "c1"
    finally:
        target.close()


def test_a_segfault_fails_the_call_with_its_signal(tmp_path: Path) -> None:
    target = _isolated(
        tmp_path,
        """
        import ctypes
        from refold.reference.chat import fold as _fold
        def fold(chunks):
            if "SEGV" in str(chunks):
                ctypes.string_at(0)
            return _fold(chunks)
    """,
    )
    try:
        with pytest.raises(TargetError, match="SIGSEGV") as info:
            target.fold(_content("SEGV"))
        assert info.value.kind == "crashed"
        assert target.fold(CHUNKS)["id"] == "c1"
    finally:
        target.close()


def test_an_endless_loop_in_add_meets_the_per_call_deadline(tmp_path: Path) -> None:
    target = _isolated(
        tmp_path,
        """
        from refold.reference.chat import Accumulator as _Reference
        class Accumulator(_Reference):
            def add(self, chunk):
                while "LOOP" in str(chunk):
                    pass
                super().add(chunk)
    """,
        timeout=1.0,
    )
    try:
        started = time.monotonic()
        with pytest.raises(TargetError, match="within 1 s") as info:
            target.fold(_content("LOOP"))
        assert info.value.kind == "timeout"
        assert time.monotonic() - started < 4
        assert target.fold(CHUNKS)["id"] == "c1"
    finally:
        target.close()


def test_a_keyboard_interrupt_raised_by_the_target_fails_the_call_not_the_run(
    tmp_path: Path,
) -> None:
    target = _isolated(
        tmp_path,
        """
        def fold(chunks):
            raise KeyboardInterrupt
    """,
    )
    try:
        with pytest.raises(TargetError, match="raised KeyboardInterrupt") as info:
            target.fold(CHUNKS)
        assert info.value.kind == "crashed"  # not a refusal (ROB-NOT-OBJECT)
    finally:
        target.close()


def test_patching_the_harness_from_the_target_changes_nothing_here(tmp_path: Path) -> None:
    differences, runtest = refold.run.checks.Check.differences, _pytest.python.Function.runtest
    target = _isolated(
        tmp_path,
        """
        import _pytest.python
        import refold.run.checks
        refold.run.checks.Check.differences = lambda *a: []
        _pytest.python.Function.runtest = lambda self: None
        def fold(chunks):
            return {"object": "chat.completion", "choices": []}
    """,
    )
    try:
        assert refold.run.checks.Check.differences is differences
        assert _pytest.python.Function.runtest is runtest
        with pytest.raises(ConformanceFailure, match="differs from the expected"):
            Check(target).folds_like_reference(CHUNKS)
    finally:
        target.close()


def test_a_target_mutating_its_chunks_is_caught_in_the_worker(tmp_path: Path) -> None:
    target = _isolated(
        tmp_path,
        """
        from refold.reference.chat import Accumulator as _Reference
        class Accumulator(_Reference):
            def __init__(self):
                super().__init__()
                self.kept = []
            def add(self, chunk):
                super().add(chunk)
                self.kept.append(chunk)
            def response(self):
                self.kept[0]["id"] = "changed later"
                return super().response()
    """,
    )
    try:
        with pytest.raises(TargetError, match="LIFE-SNAPSHOT") as info:
            target.fold(CHUNKS)
        assert info.value.kind == "mutated-input"
    finally:
        target.close()


def test_a_target_printing_and_reading_stdin_cannot_touch_the_protocol(tmp_path: Path) -> None:
    target = _isolated(
        tmp_path,
        """
        import os, sys
        from refold.reference.chat import fold as _fold
        def fold(chunks):
            print('{"ok": true, "response": {}}')
            os.write(1, b"raw bytes on fd 1\\n")
            assert sys.stdin.read() == "" and os.read(0, 100) == b""
            return _fold(chunks)
    """,
    )
    try:
        assert target.fold(CHUNKS)["id"] == "c1"
        assert target.fold(CHUNKS)["id"] == "c1"
    finally:
        target.close()


def test_a_target_that_cannot_load_is_a_usage_error_with_its_reason(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="offers no target"):
        _isolated(tmp_path, "x = 1\n")
    with pytest.raises(UsageError, match="cannot claim `lifecycle`"):
        load_target(
            _target_file(tmp_path, "from refold.reference.chat import fold\n", "f.py"),
            isolated=True,
            features=frozenset({"text", "lifecycle"}),
        )


_SUITE = """
from refold.run.marks import rule

def _chunk(content):
    return [{"id": "c", "choices": [{"index": 0, "delta": {"content": content}}]}]

@rule("TEXT-JOIN")
def test_first(check):
    check.folds_like_reference(_chunk("fine"))

@rule("ENV-ID")
def test_exits(check):
    check.folds_like_reference(_chunk("EXIT"))

@rule("ENV-MODEL")
def test_interrupts(check):
    check.folds_like_reference(_chunk("INTERRUPT"))

@rule("ENV-OBJECT")
def test_last(check):
    check.folds_like_reference(_chunk("fine again"))
"""

_HOSTILE = """
import os
import refold.run.checks
from refold.reference.chat import fold as _fold
refold.run.checks.Check.differences = lambda *a: []
def fold(chunks):
    text = str(chunks)
    if "EXIT" in text:
        os._exit(0)
    if "INTERRUPT" in text:
        raise KeyboardInterrupt
    return _fold(chunks)
"""


def _run(tmp_path: Path, *options: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    (tmp_path / "test_hostile_suite.py").write_text(_SUITE, encoding="utf-8")
    _target_file(tmp_path, _HOSTILE, "hostile_target.py")
    report = tmp_path / "results.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--target=hostile_target.py",
            "--target-timeout=2",
            f"--refold-report={report}",
            *options,
            "test_hostile_suite.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    rules = json.loads(report.read_text(encoding="utf-8"))["rules"] if report.exists() else {}
    return done, rules


def test_a_run_charges_an_exit_and_an_interrupt_to_their_rules_and_goes_on(
    tmp_path: Path,
) -> None:
    done, rules = _run(tmp_path)
    assert done.returncode == 1, done.stdout[-3000:]
    statuses = {r: rules[r]["status"] for r in ("TEXT-JOIN", "ENV-ID", "ENV-MODEL", "ENV-OBJECT")}
    assert statuses == {
        "TEXT-JOIN": "passed",
        "ENV-ID": "failed",
        "ENV-MODEL": "failed",
        "ENV-OBJECT": "passed",
    }, done.stdout[-3000:]
    assert "the target exited (status 0)" in rules["ENV-ID"]["failure"]["message"]
    assert "KeyboardInterrupt" in rules["ENV-MODEL"]["failure"]["message"]
    assert "refold: results by feature and rule" in done.stdout


def test_in_process_an_interrupt_ends_the_run_with_the_table_and_a_non_zero_status(
    tmp_path: Path,
) -> None:
    done, rules = _run(tmp_path, "--in-process", "-k", "first or interrupts or last")
    assert done.returncode == 2, done.stdout[-3000:]
    assert "refold: results by feature and rule" in done.stdout
    assert "the run ended before every selected test reported: 1 of 3" in done.stdout
    assert rules["TEXT-JOIN"]["status"] == "passed"


def test_refold_check_passes_in_process_and_the_reply_limit_to_pytest() -> None:
    from refold.cli import build_parser
    from refold.commands.check import pytest_arguments

    isolated = pytest_arguments(build_parser().parse_args(["check"]))
    assert "--in-process" not in isolated
    argv = pytest_arguments(
        build_parser().parse_args(["check", "--in-process", "--target-max-reply", "1000"])
    )
    assert "--in-process" in argv
    assert "--target-max-reply=1000" in argv


def test_a_malformed_sse_reply_is_a_protocol_failure() -> None:
    from refold.targets.protocol_sse import decoded_stream

    with pytest.raises(TargetError, match="expected a list") as info:
        decoded_stream({"events": [{"type": "message", "data": 1}], "retry": None}, "t")
    assert info.value.kind == "protocol"
    with pytest.raises(TargetError, match="expected an integer or null"):
        decoded_stream({"events": [], "retry": "5"}, "t")


_HANDS_OUT_ITS_STATE = """
from refold.reference.chat import fold

class Accumulator:
    def __init__(self):
        self.chunks, self.state = [], None
    def add(self, chunk):
        self.chunks.append(chunk)
        if self.state is None:
            self.state = fold(self.chunks)
        else:  # updated in place: the object handed out is the live state
            self.state["choices"][0]["message"]["content"] = fold(self.chunks)[
                "choices"][0]["message"]["content"]
    def response(self):
        return self.state
"""


def _snapshot_observations(target: Target) -> list[object]:
    accumulator = target.accumulator()
    accumulator.add({"choices": [{"index": 0, "delta": {"content": "a"}}]})
    first = accumulator.response()
    accumulator.add({"choices": [{"index": 0, "delta": {"content": "b"}}]})
    seen = [first["choices"][0]["message"]["content"]]  # a live snapshot shows "ab"
    first["choices"][0]["message"]["content"] = "changed by the suite"
    seen.append(accumulator.response()["choices"][0]["message"]["content"])
    return seen


@pytest.mark.parametrize("source", [_HANDS_OUT_ITS_STATE, None], ids=["live", "examples"])
def test_a_live_snapshot_shows_isolated_as_it_does_in_process(
    tmp_path: Path,
    source: str | None,
) -> None:
    examples = Path(__file__).resolve().parents[3] / "examples" / "broken"
    path = _target_file(tmp_path, source) if source else str(examples / "live_snapshot.py")
    isolated = load_target(path, isolated=True)
    try:
        observed = _snapshot_observations(isolated)
    finally:
        isolated.close()
    assert observed == _snapshot_observations(load_target(path))
    if source:
        assert observed == ["ab", "changed by the suite"]


def test_a_target_handing_out_copies_is_not_touched_by_the_mirror() -> None:
    target = load_target("reference", isolated=True)
    try:
        assert _snapshot_observations(target) == ["a", "ab"]
    finally:
        target.close()
