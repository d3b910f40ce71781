"""A target process and everything it starts, confined, and killed together.

A target may fork: a child that keeps the stdout pipe open keeps the harness waiting for
an end of file that never comes, and a daemon outlives the run to rewrite its results.
Every target process is started confined (`refold.targets.confinement`) as the leader of
a new session, and the harness makes itself a child subreaper (`PR_SET_CHILD_SUBREAPER`):
a process a target started whose parent exits is re-parented to the harness, not to init,
so it stays a descendant the harness can find, however it forked, whatever session it
moved to and whatever environment it re-executed itself with.

What a target started is told apart from the harness's own processes by its session: a
target's session is new, and no process can join the harness's session again. Killing a
target kills its session's group, its descendants, every process still holding its
token (`REFOLD_TARGET_TOKEN`, for a kernel without subreapers) and every process the
harness adopted from another session; `sweep` kills every descendant of another session
before the results are written.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ..records.redaction import register_secret
from .confinement import Confinement, current

__all__ = ["TOKEN_VARIABLE", "ProcessTree", "become_subreaper", "descendants", "sweep"]

TOKEN_VARIABLE = "REFOLD_TARGET_TOKEN"
_PROC = Path("/proc")
_PR_SET_CHILD_SUBREAPER = 36
_LIVE: set[int] = set()
"""The target processes running now (each the leader of its own session)."""


def become_subreaper() -> bool:
    """Make this process the reaper of every orphan among its descendants (Linux);
    whether it is one."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)


class ProcessTree:
    """Starts confined target processes marked with one token, and kills them with their
    kin."""

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        confinement: Confinement | None = None,
        *,
        confine_option: str | None = None,
    ) -> None:
        """`confine_option`: the option with which the command confines itself (the
        worker's `--confine POLICY`) instead of being started through the launcher."""
        self.token = uuid.uuid4().hex
        register_secret(self.token)  # never persisted nor printed (`refold.records.redaction`)
        self._extra = dict(env or {})
        self._confinement = confinement
        self._confine_option = confine_option
        self._workdirs: dict[int, Path] = {}

    @property
    def confinement(self) -> Confinement:
        """The limits of the processes it starts: its own, else the run's."""
        return self._confinement or current()

    def start(self, argv: Sequence[str]) -> subprocess.Popen[bytes]:
        """Start `argv` confined, in a fresh private directory, with piped stdin, stdout
        and stderr, in a session of its own (so that a Ctrl-C at the terminal reaches the
        harness, not the target)."""
        become_subreaper()
        confinement = self.confinement
        workdir = Path(tempfile.mkdtemp(prefix="refold-target-"))
        (workdir / "tmp").mkdir()
        env = {**confinement.environment(workdir), **self._extra, TOKEN_VARIABLE: self.token}
        try:
            command = (
                confinement.command(argv, workdir)
                if self._confine_option is None
                else [*argv, self._confine_option, confinement.policy(workdir)]
            )
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=workdir,
                start_new_session=True,
            )
        except OSError:
            shutil.rmtree(workdir, ignore_errors=True)
            raise
        _LIVE.add(process.pid)
        self._workdirs[process.pid] = workdir
        return process

    def kill(self, process: subprocess.Popen[bytes]) -> int | None:
        """Kill `process`, its session's group, its descendants, every process holding the
        token and every orphan adopted from another session; return its exit status
        (None if it could not be reaped)."""
        family = descendants(process.pid)
        _signal_group(process.pid)
        for pid in family:
            _signal(pid)
        self.kill_strays()
        _kill_and_reap(_adopted())  # `process` is still live: Popen reaps it, with its status
        try:
            status: int | None = process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            status = None
        _LIVE.discard(process.pid)
        _kill_and_reap(_adopted())  # what the family's parents left behind as they died
        workdir = self._workdirs.pop(process.pid, None)
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)
        return status

    def kill_strays(self) -> None:
        """Kill every process whose environment holds this tree's token (Linux only)."""
        marker = f"{TOKEN_VARIABLE}={self.token}".encode()
        for pid in _pids():
            try:
                environ = (_PROC / str(pid) / "environ").read_bytes()
            except OSError:
                continue  # gone already, or another user's
            if marker in environ.split(b"\0"):
                _signal_group(pid)
                _signal(pid)


def sweep() -> int:
    """Kill every descendant of this process that a target started (one of another
    session than this process's, and not a target still serving); how many there were.
    Called before any result or report is written."""
    own = _session(os.getpid())
    found = [
        pid
        for pid in descendants(os.getpid())
        if _session(pid) not in (own, None) and pid not in _LIVE and _session(pid) not in _LIVE
    ]
    _kill_and_reap(found)
    return len(found)


def descendants(root: int) -> list[int]:
    """Every process below `root` (Linux: read from /proc; elsewhere none)."""
    children: dict[int, list[int]] = {}
    for pid in _pids():
        parent = _stat(pid, 1)
        if parent is not None:
            children.setdefault(parent, []).append(pid)
    found, frontier = [], [root]
    while frontier:
        below = children.get(frontier.pop(), [])
        found += below
        frontier += below
    return found


def _adopted() -> list[int]:
    """This process's children from another session that no serving target leads: the
    orphans it reaped as a subreaper."""
    own, me = _session(os.getpid()), os.getpid()
    return [
        pid
        for pid in _pids()
        if _stat(pid, 1) == me
        and pid not in _LIVE
        and _session(pid) not in (own, None)
        and _session(pid) not in _LIVE
    ]


def _kill_and_reap(pids: Iterable[int]) -> None:
    found = list(pids)
    for pid in found:
        _signal(pid)
    deadline = time.monotonic() + 2.0
    waiting = [pid for pid in found if _stat(pid, 1) == os.getpid()]
    while waiting and time.monotonic() < deadline:
        waiting = [pid for pid in waiting if not _reaped(pid)]
        if waiting:
            time.sleep(0.01)


def _reaped(pid: int) -> bool:
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True  # not ours (any more), or reaped already
    return done == pid


def _pids() -> list[int]:
    if not _PROC.is_dir():
        return []
    me = os.getpid()
    return [
        int(entry.name)
        for entry in _PROC.iterdir()
        if entry.name.isdigit() and int(entry.name) != me
    ]


def _stat(pid: int, field: int) -> int | None:
    """Field `field` of /proc/PID/stat after the command (0 the state, 1 the parent, 3 the
    session); None when the process is gone."""
    try:
        text = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    try:
        return int(fields[field])
    except (IndexError, ValueError):
        return None


def _session(pid: int) -> int | None:
    return _stat(pid, 3)


def _signal_group(pid: int) -> None:
    # ProcessLookupError: the group is gone (or never was one), nothing left to kill.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _signal(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
