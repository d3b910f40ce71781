"""A small client of events.md §5's refold-events/1 protocol, for the tests of the Node.js
events targets until the harness's own client lands.

It starts the adapter command, reads its hello, and runs one stream at a time: begin, one
frame op per frame (the next frame is sent only after the ack of the one before), end, then
the final events, the outcome and what the runtime persists. Every event is kept with the
window it arrived in: `k` for an event written before ack k, `len(frames)` for one written
after `end`. `late` reads that the way §5.3 does: an event whose opaque is frame j but that
arrived in a later window was not emitted before the next frame was read (EV-FRAME-ORDER).
`checked` runs a stream and returns the rules `check_events` finds broken in its output.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from refold.reference.events import check_events

__all__ = ["EventsProcess", "Run", "checked", "late", "on_time"]

_SECONDS = 30.0
_CARRIED = ("opaque", "payload")


@dataclass
class Run:
    """One stream's output: the events with their windows, the outcome, the persisted value."""

    frames: list[Any]
    events: list[Any] = field(default_factory=list)
    windows: list[int] = field(default_factory=list)
    outcome: dict[str, Any] = field(default_factory=dict)
    persisted: Any = None

    @property
    def kinds(self) -> list[str]:
        return [str(e.get("type")) if isinstance(e, dict) else repr(e) for e in self.events]

    def windows_of(self, kind: str) -> list[int]:
        """The windows the events of one variant arrived in."""
        return [
            w
            for e, w in zip(self.events, self.windows, strict=True)
            if isinstance(e, dict) and e.get("type") == kind
        ]


class EventsProcess:
    """A running adapter process speaking refold-events/1."""

    def __init__(self, command: Sequence[str]) -> None:
        self._process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: list[str] = []  # drained as it comes: a full pipe would block the adapter
        self._readers = [
            threading.Thread(target=self._pump, daemon=True),
            threading.Thread(target=self._drain, daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        self.hello: dict[str, Any] = self._read()["hello"]
        self._stream = 0

    def _pump(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _drain(self) -> None:
        assert self._process.stderr is not None
        self._stderr.extend(self._process.stderr)

    @property
    def stderr(self) -> str:
        """What the adapter wrote to stderr so far."""
        return "".join(self._stderr)

    def _read(self) -> dict[str, Any]:
        line = self._lines.get(timeout=_SECONDS)
        if line is None:
            code = self._process.wait()
            self._readers[1].join(timeout=_SECONDS)
            raise RuntimeError(f"the adapter exited ({code}): {self.stderr[-2000:]}")
        message = json.loads(line)
        assert isinstance(message, dict), line
        return message

    def _send(self, message: dict[str, Any]) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(message) + "\n")
        self._process.stdin.flush()

    def run(self, dialect: str, frames: Sequence[Any]) -> Run:
        """Run one stream through the adapter."""
        self._stream += 1
        stream, result = self._stream, Run(list(frames))
        self._send({"op": "begin", "stream": stream, "dialect": dialect})
        for seq, frame in enumerate(frames):
            self._send({"op": "frame", "stream": stream, "seq": seq, "frame": frame})
            while "ack" not in (message := self._mine(stream)):
                self._event(result, message, seq)
            assert message["ack"] == seq, message
        self._send({"op": "end", "stream": stream})
        while "outcome" not in (message := self._mine(stream)):
            self._event(result, message, len(frames))
        result.outcome = {k: v for k, v in message.items() if k != "stream"}
        result.persisted = self._mine(stream)["persisted"]
        return result

    def fold(self, events: list[Any]) -> Any:
        """The adapter's fold of `events` (§5.5)."""
        self._stream += 1
        self._send({"op": "fold", "stream": self._stream, "events": events})
        return self._mine(self._stream)["turn"]

    def _mine(self, stream: int) -> dict[str, Any]:
        message = self._read()
        assert message.get("stream") == stream, message
        return message

    @staticmethod
    def _event(result: Run, message: dict[str, Any], window: int) -> None:
        assert set(message) == {"stream", "event"}, message
        result.events.append(message["event"])
        result.windows.append(window)

    def close(self) -> None:
        """End the process (stdin closed: it exits) and close its pipes."""
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(timeout=_SECONDS)
        for reader in self._readers:
            reader.join(timeout=_SECONDS)
        for pipe in (self._process.stdout, self._process.stderr):
            if pipe is not None:
                pipe.close()


def late(run: Run) -> list[tuple[int, int, int]]:
    """(event, frame, window) of every event whose opaque is a frame sent before the
    window it arrived in, and none sent in it: emitted after that frame was acked."""
    found = []
    for number, (event, window) in enumerate(zip(run.events, run.windows, strict=True)):
        carried = [
            event[k]
            for k in _CARRIED
            if isinstance(event, dict) and k in event and event.get("type") != "Completed"
        ]
        if not carried:
            continue
        sources = [j for j, frame in enumerate(run.frames) if frame == carried[0]]
        if sources and window not in sources and all(j < window for j in sources):
            found.append((number, max(sources), window))
    return found


def on_time(run: Run) -> bool:
    """Every event carrying a frame came before that frame's ack."""
    return late(run) == []


def checked(
    process: EventsProcess, dialect: str, frames: list[Any], canaries: tuple[str, ...] = ()
) -> tuple[Run, list[str]]:
    """The run of `frames` and the rule of every violation check_events finds in it, for
    the provider the adapter declared, with its fold op."""
    run = process.run(dialect, frames)
    provider = process.hello.get("provider")
    found = check_events(
        dialect,
        frames,
        run.events,
        run.outcome,
        run.persisted,
        canaries=canaries,
        provider=provider if isinstance(provider, str) else None,
        fold=process.fold,
    )
    return run, [violation.rule for violation in found]
