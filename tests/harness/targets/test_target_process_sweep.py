"""Nothing a target starts outlives it or the run: the harness is a child subreaper, and
what a target started (whatever it forked, the session it moved to, the environment it
re-executed itself with) is killed with it and before any result is written."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from refold.targets import load_target
from refold.targets.confinement import Confinement, configure, current

CHUNKS = [
    {"id": "c1", "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}]}
]


@pytest.fixture
def confined() -> Iterator[None]:
    """The run's confinement restored after a test that sets its own."""
    before = current()
    yield
    configure(before)


def _file(folder: Path, name: str, source: str) -> str:
    path = folder / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return str(path)


def _pytest(folder: Path, target: str, *options: str) -> subprocess.CompletedProcess[str]:
    """`pytest --target=TARGET` run from `folder`, as a user would start it there."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:randomly",
            f"--target={target}",
            "--hypothesis-profile=dev",
            "--rules=TEXT-JOIN",
            "--replay-dir=",
            *options,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


_DAEMON_SERVER = """
import json, os, sys, time
if sys.argv[1] == "--daemon":  # re-executed: no token, a session of its own
    pids, watched = sys.argv[2], sys.argv[3:]
    with open(pids, "a") as out:
        out.write(f"{os.getpid()}\\n")
    while not all(os.path.exists(path) for path in watched):
        time.sleep(0.05)
    time.sleep(0.5)
    for path in watched:
        try:
            with open(path, "w") as out:
                out.write('<testsuite failures="0"/>' if path.endswith(".xml")
                          else '{"rules": {"TEXT-JOIN": {"status": "passed"}}}')
        except OSError:
            pass
    time.sleep(60)
    os._exit(0)

def spawn(watched):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execve(sys.executable, [sys.executable, __file__, "--daemon", sys.argv[1],
                                       *watched], {})
        os._exit(0)
    os.wait()

spawned = False
for line in sys.stdin:
    message = json.loads(line)
    reply = {"ok": True, "seq": message.get("seq")}
    if message["op"] == "hello":
        reply |= {"protocol": 2, "operations": ["fold"], "features": ["text"]}
    else:
        if not spawned:
            try:
                folder = os.readlink(f"/proc/{os.getppid()}/cwd")
            except OSError:  # Landlock denies it: the folder as an attacker would guess it
                folder = os.path.dirname(sys.argv[1])
            spawn([os.path.join(folder, name) for name in sys.argv[2:]])
            spawned = True
        reply["response"] = {"object": "garbage"}
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
"""


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _daemon_command(tmp_path: Path, *watched: str) -> str:
    script = _file(tmp_path, "daemon_server.py", _DAEMON_SERVER)
    return "exec:" + shlex.join([sys.executable, script, str(tmp_path / "pids"), *watched])


def test_a_setsid_daemon_reexecuted_without_the_token_dies_with_its_target(
    tmp_path: Path,
    confined: None,
) -> None:
    configure(Confinement(writable=(str(tmp_path),)))  # where it notes its pid
    target = load_target(_daemon_command(tmp_path, "never-written"))
    try:
        target.fold(CHUNKS)
        deadline = time.monotonic() + 5
        while not (tmp_path / "pids").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        daemon = int((tmp_path / "pids").read_text().split()[0])
        assert _alive(daemon)
        assert b"REFOLD_TARGET_TOKEN" not in Path(f"/proc/{daemon}/environ").read_bytes()
    finally:
        target.close()
    assert not _alive(daemon)


def test_a_daemon_cannot_rewrite_the_results_after_the_run(tmp_path: Path) -> None:
    command = _daemon_command(tmp_path, "results.json", "junit.xml")
    done = _pytest(tmp_path, command, "--refold-report=results.json", "--junitxml=junit.xml")
    assert done.returncode == 1, done.stdout[-2000:]
    time.sleep(2.0)  # the daemon wrote 0.5 s after both files appeared, if it lived
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["rules"]["ENV-OBJECT"]["status"] == "failed"  # the harness's, unchanged
    assert 'failures="0"' not in (tmp_path / "junit.xml").read_text()


def test_the_sweep_kills_every_orphan_from_another_session_and_spares_the_harness_own(
    tmp_path: Path,
) -> None:
    from refold.targets.process_tree import become_subreaper, sweep

    assert become_subreaper()
    own = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    noted = tmp_path / "orphan"
    subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent("""
        import os, sys, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                with open(sys.argv[1] + ".part", "w") as out:
                    out.write(str(os.getpid()))
                os.rename(sys.argv[1] + ".part", sys.argv[1])
                time.sleep(30)
            os._exit(0)
        os.wait()
    """),
            str(noted),
        ],
        check=True,
        timeout=30,
    )
    # only the sleeper this test forked: under xdist the worker has other tests' children
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not noted.exists():
        time.sleep(0.05)
    orphan = int(noted.read_text())
    while time.monotonic() < deadline and orphan not in _children():
        time.sleep(0.05)
    try:
        assert orphan in _children(), "the double-forked sleeper was re-parented to this subreaper"
        assert sweep() >= 1
        assert not _alive(orphan)
        assert own.poll() is None  # of this process's session: not a target's
    finally:
        own.kill()
        own.wait()


def _children() -> list[int]:
    me = str(os.getpid())
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if fields[1] == me:
                found.append(int(entry.name))
    return found
