"""A target process and everything it starts, killed together.

A target may fork: a child that keeps the stdout pipe open keeps the harness waiting for
an end of file that never comes, and a daemon outlives the run. Every target process is
started as the leader of a new process group, and killing it kills the group. A process
that left the group (a double-forked daemon calls `setsid`) is still found on Linux: each
target's environment carries a token (`REFOLD_TARGET_TOKEN`), inherited by everything it
starts, and processes whose environment holds it are killed too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["TOKEN_VARIABLE", "ProcessTree"]

TOKEN_VARIABLE = "REFOLD_TARGET_TOKEN"
_PROC = Path("/proc")


class ProcessTree:
    """Starts target processes marked with one token, and kills them with their kin."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self.token = uuid.uuid4().hex
        self._env = {**(os.environ if env is None else env), TOKEN_VARIABLE: self.token}

    def start(self, argv: Sequence[str]) -> subprocess.Popen[bytes]:
        """Start `argv` with piped stdin, stdout and stderr, in a process group of its own
        (so that a Ctrl-C at the terminal reaches the harness, not the target)."""
        return subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=self._env, start_new_session=True)

    def kill(self, process: subprocess.Popen[bytes]) -> int | None:
        """Kill `process`, its process group and every process holding the token; return
        its exit status (None if it could not be reaped)."""
        _signal_group(process.pid)
        self.kill_strays()
        try:
            return process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            return None

    def kill_strays(self) -> None:
        """Kill every process whose environment holds this tree's token (Linux only)."""
        marker = f"{TOKEN_VARIABLE}={self.token}".encode()
        if not _PROC.is_dir():
            return
        for entry in _PROC.iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                environ = (entry / "environ").read_bytes()
            except OSError:
                continue  # gone already, or another user's
            if marker in environ.split(b"\0"):
                _signal_group(int(entry.name))
                _signal(int(entry.name))


def _signal_group(pid: int) -> None:
    # ProcessLookupError: the group is gone (or never was one), nothing left to kill.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _signal(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
