"""exec: targets are bounded in time, size and order: what a target starts dies with it
(at the deadline and at the end of the run), a reply line has a size limit, and every
reply must echo its request's `seq`, so a reply is never charged to another request."""

from __future__ import annotations

import shlex
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from refold.errors import TargetError, UsageError
from refold.targets import Target, load_target
from refold.targets.confinement import Confinement, configure, current


@pytest.fixture(autouse=True)
def _pids_writable(tmp_path: Path) -> Iterator[None]:
    """The servers below note the pids they fork in tmp_path, outside their own folder."""
    before = current()
    configure(Confinement(writable=(str(tmp_path),)))
    yield
    configure(before)


_SERVER = """
import json, os, sys, time
PIDS, MODES = sys.argv[1], sys.argv[2:]

def send(reply):
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()

def ok(message, **fields):
    send({"ok": True, "seq": message.get("seq"), **fields})

def note(pid):
    with open(PIDS, "a") as pids:
        pids.write(f"{pid}\\n")

def sleeper():
    time.sleep(60)
    os._exit(0)

for line in sys.stdin:
    message = json.loads(line)
    text = json.dumps(message.get("chunks"))
    if message["op"] == "hello":
        if "v1" in MODES:
            send({"ok": True, "protocol": 1, "operations": ["fold"]})
            continue
        ok(message, protocol=2, operations=["fold"])
        if "twice" in MODES:
            ok(message, protocol=2, operations=["fold"])
        continue
    if "FORK" in text:  # a child holding stdout, and no reply
        child = os.fork()
        if child == 0:
            sleeper()
        note(child)
        time.sleep(60)
    if "DAEMON" in text:  # double fork into a session of its own
        if os.fork() == 0:
            os.setsid()
            grandchild = os.fork()
            if grandchild == 0:
                sleeper()
            note(grandchild)
            os._exit(0)
        os.wait()
    if "CHILD" in text:  # a child holding the pipes after the reply
        child = os.fork()
        if child == 0:
            sleeper()
        note(child)
    if "BIG" in text:
        ok(message, response={"object": "x" * 5000})
        continue
    ok(message, response={"object": "chat.completion", "id": "ok", "choices": []})
"""


def _start(tmp_path: Path, *modes: str, timeout: float = 1.0, max_reply: int = 1000) -> Target:
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent(_SERVER), encoding="utf-8")
    command = shlex.join([sys.executable, str(script), str(tmp_path / "pids"), *modes])
    return load_target(f"exec:{command}", timeout=timeout, max_reply=max_reply)


def _chunks(text: str) -> list[object]:
    return [{"choices": [{"index": 0, "delta": {"content": text}}]}]


def _pids(tmp_path: Path) -> list[int]:
    return [int(line) for line in (tmp_path / "pids").read_text().split()]


def _alive(pid: int) -> bool:
    """Running (a zombie no reaper collected counts as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _gone_soon(pid: int, seconds: float = 2.0) -> bool:
    deadline = time.monotonic() + seconds
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _alive(pid)


def test_a_child_holding_stdout_dies_at_the_deadline_with_its_parent(tmp_path: Path) -> None:
    target = _start(tmp_path)
    try:
        started = time.monotonic()
        with pytest.raises(TargetError, match="within 1 s") as info:
            target.fold(_chunks("FORK"))
        assert info.value.kind == "timeout"
        assert time.monotonic() - started < 4
        assert _gone_soon(_pids(tmp_path)[0])
        assert target.fold(_chunks("fine"))["id"] == "ok"
    finally:
        target.close()


def test_a_double_forked_daemon_does_not_outlive_the_run(tmp_path: Path) -> None:
    target = _start(tmp_path)
    try:
        assert target.fold(_chunks("DAEMON"))["id"] == "ok"
        daemon = _pids(tmp_path)[0]
        assert _alive(daemon)
    finally:
        target.close()
    assert _gone_soon(daemon)


def test_a_child_holding_the_pipes_does_not_keep_the_end_of_the_run_waiting(
    tmp_path: Path,
) -> None:
    target = _start(tmp_path)
    assert target.fold(_chunks("CHILD"))["id"] == "ok"
    started = time.monotonic()
    target.close()
    assert time.monotonic() - started < 4
    assert _gone_soon(_pids(tmp_path)[0])


def test_a_second_reply_to_hello_is_caught_by_its_seq_not_charged_to_the_next_request(
    tmp_path: Path,
) -> None:
    target = _start(tmp_path, "twice")
    try:
        with pytest.raises(TargetError, match=r"reply to 'fold' \(seq 2\) carries seq 1") as info:
            target.fold(_chunks("fine"))
        assert info.value.kind == "protocol"
    finally:
        target.close()


def test_a_target_speaking_protocol_1_is_refused_with_what_changed(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"protocol 1.*protocol 2.*`seq`"):
        _start(tmp_path, "v1")


def test_a_reply_line_beyond_the_limit_is_a_protocol_failure(tmp_path: Path) -> None:
    target = _start(tmp_path, max_reply=1000)
    try:
        with pytest.raises(TargetError, match="exceeds 1000 bytes") as info:
            target.fold(_chunks("BIG"))
        assert info.value.kind == "protocol"
        assert target.fold(_chunks("fine"))["id"] == "ok"
    finally:
        target.close()
