"""`exec:COMMAND` targets: an implementation in any language, as one persistent process.

The process speaks the JSON-lines protocol of docs/protocol.md: one request per line on
its stdin, one reply per line on its stdout, stderr free for its own logs. One process
serves the whole run. Every request has a deadline (`--target-timeout`) for its whole
reply: a reader thread hands stdout lines over through a queue, so the harness never
blocks on a hung process. Every reply must echo its request's `seq`, so a reply can never
be charged to another request. A process that hangs, dies or breaks the protocol is
killed with everything it started (`refold.targets.process_tree`), the call fails with a
TargetError saying what happened, and the next call starts a fresh process.
"""

from __future__ import annotations

import collections
import contextlib
import enum
import itertools
import json
import queue
import shlex
import signal
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import IO

from refold.reference import JSONObject

from ..dialects import Dialect
from ..errors import TargetError, UsageError
from .confinement import Confinement, anchored
from .process_tree import ProcessTree
from .remote import DEFAULT_MAX_REPLY, RemoteTarget, misanswered, stamped

__all__ = ["ExecTarget", "ExecTransport"]

_STDERR_LINES = 20
_STDERR_LINE_BYTES = 2000


class _End(enum.Enum):
    """What the reader thread hands over instead of a line."""

    EOF = "the process closed its stdout"
    OVERSIZE = "a reply line exceeded the reply limit"


class ExecTransport:
    """One child process at a time, restarted after it hangs, crashes or misbehaves."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        where: str,
        timeout: float,
        hello_timeout: float | None = None,
        max_reply: int = DEFAULT_MAX_REPLY,
        env: Mapping[str, str] | None = None,
        confine_option: str | None = None,
    ) -> None:
        self.argv = list(argv)
        if not self.argv:
            raise UsageError("exec: needs a command, e.g. exec:node examples/js/target.js")
        self.where = where
        self.timeout = timeout
        self.hello_timeout = timeout if hello_timeout is None else hello_timeout
        self.max_reply = max_reply
        self._tree = ProcessTree(env, confine_option=confine_option)
        self._generation = 0
        self._starts = 0
        self._seq = itertools.count(1)
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | _End] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._hello: JSONObject | None = None
        self._pumps: list[threading.Thread] = []

    @classmethod
    def from_command(
        cls, command: str, *, timeout: float, max_reply: int = DEFAULT_MAX_REPLY
    ) -> ExecTransport:
        """The transport of `exec:COMMAND`: the command is split as a shell would."""
        return cls(
            anchored(shlex.split(command)),
            where=f"exec:{command}",
            timeout=timeout,
            max_reply=max_reply,
        )

    @property
    def confinement(self) -> Confinement:
        """The limits its processes run under."""
        return self._tree.confinement

    def generation(self) -> int:
        """How many processes were discarded: accumulators of older ones are gone."""
        return self._generation

    def request(self, message: JSONObject) -> JSONObject:
        """Send one request line and wait, at most `timeout` seconds, for its reply."""
        if message.get("op") == "hello":
            self._hello = message  # said again to every restarted process
        self._running()
        return self._exchange(message)

    def running(self) -> bool:
        """Start the process if none is running; True when this call started it (a
        protocol whose target speaks first reads its greeting then)."""
        started = self._process is None
        self._running()
        return started

    def send(self, message: JSONObject) -> None:
        """Send one line as it is (a protocol without `seq`, refold-events/1)."""
        self._running()
        self._send(message)

    def receive(self, what: str) -> JSONObject:
        """The next line of the process, a JSON object, within `timeout` seconds (the
        hello deadline for `what` == "hello"); any failure kills the process."""
        self._running()
        return self._reply({"op": what})

    def fail(self, kind: str, what: str) -> TargetError:
        """Kill the process (the next call starts a fresh one); the failure, described."""
        return self._failure(kind, what)

    def _exchange(self, message: JSONObject) -> JSONObject:
        sent = stamped(message, next(self._seq))
        self._send(sent)
        reply = self._reply(sent)
        problem = misanswered(sent, reply)
        if problem is not None:
            raise self._failure("protocol", problem)
        return reply

    def _send(self, message: JSONObject) -> None:
        assert self._process is not None, "started by _running"
        assert self._process.stdin is not None, "started with stdin=PIPE"
        try:
            self._process.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            self._process.stdin.flush()
        except OSError:
            raise self._crash(f"before reading {message.get('op')!r}") from None

    def _reply(self, message: JSONObject) -> JSONObject:
        op = message.get("op")
        seconds = self.hello_timeout if op == "hello" else self.timeout
        try:
            raw = self._lines.get(timeout=seconds)
        except queue.Empty:
            raise self._failure(
                "timeout",
                f"no reply to {op!r} within {seconds:g} s; the process was "
                f"killed and a fresh one will serve the next call",
            ) from None
        if raw is _End.EOF:
            raise self._crash(f"while answering {op!r}")
        if raw is _End.OVERSIZE:
            raise self._failure(
                "protocol",
                f"the reply to {op!r} exceeds {self.max_reply} bytes (--target-max-reply)",
            )
        try:
            reply = json.loads(raw)
        except ValueError:
            raise self._failure(
                "protocol",
                f"the reply to {op!r} is not JSON: "
                f"{raw[:200]!r} (stdout is for protocol lines "
                f"only; log to stderr)",
            ) from None
        if not isinstance(reply, dict):
            raise self._failure(
                "protocol", f"the reply to {op!r} is {raw[:200]!r}, expected a JSON object"
            )
        return reply

    def _running(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            self._start()
        assert self._process is not None
        return self._process

    def _start(self) -> None:
        try:
            process = self._tree.start(self.argv)
        except OSError as exc:
            raise UsageError(f"{self.where}: cannot start {self.argv[0]!r}: {exc}") from exc
        self._starts += 1
        self._process = process
        self._lines = queue.Queue()
        self._stderr.clear()
        assert process.stdout is not None, "started with stdout=PIPE"
        assert process.stderr is not None, "started with stderr=PIPE"
        self._pumps = [
            _daemon(_pump_lines, process.stdout, self._lines, self.max_reply),
            _daemon(_pump_stderr, process.stderr, self._stderr),
        ]
        if self._hello is not None and self._starts > 1:
            self._exchange(self._hello)

    def _crash(self, when: str) -> TargetError:
        status = self._stop()
        return self._error("crashed", f"the target exited ({_status(status)}) {when}")

    def _failure(self, kind: str, what: str) -> TargetError:
        """Kill the process (the next call starts a fresh one) and describe the failure."""
        self._stop()
        return self._error(kind, what)

    def _error(self, kind: str, what: str) -> TargetError:
        detail = f"{self.where}: {what}"
        if self._stderr:
            detail += "\nlast lines of its stderr:\n" + "\n".join(
                "  " + line for line in self._stderr
            )
        return TargetError(detail, kind=kind)

    def _stop(self) -> int | None:
        """Kill the process and all it started; its exit status (None if unknown)."""
        process, self._process = self._process, None
        if process is None:
            return None
        self._generation += 1  # the accumulators of this process are gone with it
        status = self._tree.kill(process)
        for pump in self._pumps:
            pump.join(timeout=1.0)  # every writer is gone: its pipes reach end of file
        if process.stdin is not None:
            with contextlib.suppress(OSError):  # the pipe broke with the process
                process.stdin.close()
        return status

    def close(self) -> None:
        """End the process: close its stdin so it can exit, then kill what is left of it
        (a child or daemon it started would otherwise outlive the run)."""
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
    def start(
        cls,
        command: str,
        *,
        features: frozenset[str] | None,
        timeout: float,
        dialect: Dialect | None = None,
        max_reply: int = DEFAULT_MAX_REPLY,
    ) -> ExecTarget:
        """Start the process and say hello; a failing hello is a usage error."""
        transport = ExecTransport.from_command(command, timeout=timeout, max_reply=max_reply)
        return cls.greeted(transport, spec=f"exec:{command}", features=features, dialect=dialect)


def _status(status: int | None) -> str:
    if status is None:
        return "status unknown"
    if status < 0:
        try:
            return f"status {status}, killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"status {status}"
    return f"status {status}"


def _daemon(function: Callable[..., None], *args: object) -> threading.Thread:
    thread = threading.Thread(target=function, args=args, daemon=True)
    thread.start()
    return thread


def _pump_lines(stream: IO[bytes], lines: queue.Queue[bytes | _End], limit: int) -> None:
    end = _End.EOF
    try:
        # readline(limit + 1): a reply without an end of line cannot fill the memory.
        for line in iter(lambda: stream.readline(limit + 1), b""):
            if len(line) > limit and not line.endswith(b"\n"):
                end = _End.OVERSIZE
                break
            lines.put(line)
    except (OSError, ValueError):
        pass  # the pipe was torn down with the process: that is the end of its output
    finally:
        lines.put(end)
        _close(stream)


def _pump_stderr(stream: IO[bytes], tail: collections.deque[str]) -> None:
    try:
        for line in iter(lambda: stream.readline(_STDERR_LINE_BYTES), b""):
            tail.append(line.decode("utf-8", "replace").rstrip("\n"))
    except (OSError, ValueError):
        pass  # as above
    finally:
        _close(stream)


def _close(stream: IO[bytes]) -> None:
    # Closed by the thread reading it: closing it from another thread while a read is
    # under way can block that thread on the stream's lock.
    with contextlib.suppress(OSError):
        stream.close()
