"""`exec:COMMAND` targets: an implementation in any language, as one persistent process.

The process speaks the JSON-lines protocol of docs/protocol.md: one request per line on
its stdin, one reply per line on its stdout, stderr free for its own logs. One process
serves the whole run. Every request has a deadline (`--target-timeout`): a reader thread
hands stdout lines over through a queue, so the harness never blocks on a hung process.
A process that hangs, dies or breaks the protocol is killed, the call fails with a
TargetError saying what happened, and the next call starts a fresh process.
"""

from __future__ import annotations

import collections
import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable
from typing import IO

from refold.reference import JSONObject

from .errors import TargetError, UsageError
from .targets import RemoteTarget

__all__ = ["ExecTarget", "ExecTransport"]

_STDERR_LINES = 20
_EOF = b""


class ExecTransport:
    """One child process at a time, restarted after it hangs, crashes or misbehaves."""

    def __init__(self, command: str, *, timeout: float) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise UsageError("exec: needs a command, e.g. exec:node examples/js/target.js")
        self.where = f"exec:{command}"
        self.timeout = timeout
        self._generation = 0
        self._starts = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._hello: JSONObject | None = None
        self._pumps: list[threading.Thread] = []

    def generation(self) -> int:
        """How many processes were discarded: accumulators of older ones are gone."""
        return self._generation

    def request(self, message: JSONObject) -> JSONObject:
        """Send one request line and wait, at most `timeout` seconds, for its reply."""
        if message.get("op") == "hello":
            self._hello = message  # said again to every restarted process
        self._send(message)
        return self._reply(message)

    def _send(self, message: JSONObject) -> None:
        stdin = self._running().stdin
        assert stdin is not None, "started with stdin=PIPE"
        try:
            stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            stdin.flush()
        except OSError:
            raise self._failure("crashed", "the process closed its stdin") from None

    def _reply(self, message: JSONObject) -> JSONObject:
        try:
            raw = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._failure(
                "timeout", f"no reply to {message.get('op')!r} within {self.timeout:g} s; "
                f"the process was killed and a fresh one will serve the next call") from None
        if raw == _EOF:
            raise self._failure("crashed", f"the process exited while answering "
                                           f"{message.get('op')!r}")
        try:
            reply = json.loads(raw)
        except ValueError:
            raise self._failure("protocol", f"the reply to {message.get('op')!r} is not JSON: "
                                            f"{raw[:200]!r} (stdout is for protocol lines "
                                            f"only; log to stderr)") from None
        if not isinstance(reply, dict):
            raise self._failure("protocol", f"the reply to {message.get('op')!r} is "
                                            f"{raw[:200]!r}, expected a JSON object")
        return reply

    def _running(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            self._start()
        assert self._process is not None
        return self._process

    def _start(self) -> None:
        try:
            process = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as exc:
            raise UsageError(f"{self.where}: cannot start {self.argv[0]!r}: {exc}") from exc
        self._starts += 1
        self._process = process
        self._lines = queue.Queue()
        self._stderr.clear()
        assert process.stdout is not None, "started with stdout=PIPE"
        assert process.stderr is not None, "started with stderr=PIPE"
        self._pumps = [_daemon(_pump_lines, process.stdout, self._lines),
                       _daemon(_pump_stderr, process.stderr, self._stderr)]
        if self._hello is not None and self._starts > 1:
            self._send(self._hello)
            self._reply(self._hello)

    def _failure(self, kind: str, what: str) -> TargetError:
        """Kill the process (the next call starts a fresh one) and describe the failure."""
        status = self._stop()
        detail = f"{self.where}: {what}"
        if status is not None and kind == "crashed":
            detail += f" (exit status {status})"
        if self._stderr:
            detail += "\nlast lines of its stderr:\n" + "\n".join(
                "  " + line for line in self._stderr)
        return TargetError(detail, kind=kind)

    def _stop(self) -> int | None:
        process, self._process = self._process, None
        if process is None:
            return None
        self._generation += 1  # the accumulators of this process are gone with it
        if process.poll() is None:
            process.kill()
        try:
            status = process.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return None
        for pump in self._pumps:
            pump.join(timeout=1.0)  # the process is gone: its pipes reach end of file
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass  # the pipe broke with the process; nothing left to flush
        return status

    def close(self) -> None:
        """End the process: close its stdin so it can exit, kill it if it does not."""
        process = self._process
        if process is not None and process.stdin is not None and process.poll() is None:
            try:
                process.stdin.close()
                process.wait(timeout=min(self.timeout, 2.0))
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._stop()


class ExecTarget(RemoteTarget):
    """A target run as a subprocess speaking the JSON-lines protocol."""

    @classmethod
    def start(cls, command: str, *, features: frozenset[str] | None,
              timeout: float) -> ExecTarget:
        """Start the process and say hello; a failing hello is a usage error."""
        return cls.greeted(ExecTransport(command, timeout=timeout), spec=f"exec:{command}",
                           features=features)


def _daemon(function: Callable[..., None], *args: object) -> threading.Thread:
    thread = threading.Thread(target=function, args=args, daemon=True)
    thread.start()
    return thread


def _pump_lines(stream: IO[bytes], lines: queue.Queue[bytes]) -> None:
    try:
        for line in iter(stream.readline, b""):
            lines.put(line)
    except (OSError, ValueError):
        pass  # the pipe was torn down with the process: that is the end of its output
    finally:
        lines.put(_EOF)


def _pump_stderr(stream: IO[bytes], tail: collections.deque[str]) -> None:
    try:
        for line in iter(stream.readline, b""):
            tail.append(line.decode("utf-8", "replace").rstrip("\n"))
    except (OSError, ValueError):
        pass  # as above
