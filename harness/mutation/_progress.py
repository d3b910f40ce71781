"""Progress while mutmut runs: its spinner output turned into a few readable lines.

mutmut redraws a spinner with carriage returns and prints one emoji-led line per
checked mutant. In a CI log that is megabytes of noise, so the relay prints each
phase once and a tally of the verdicts at most every few seconds.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable
from typing import IO

__all__ = ["ProgressRelay"]

_STATUS_BY_EMOJI = {
    "🎉": "killed",
    "🙁": "survived",
    "⏰": "timeout",
    "🫥": "no tests",
    "🤔": "suspicious",
    "🔇": "skipped",
    "🧙": "caught by type check",
    "💥": "segfault",
    "🛑": "interrupted",
}
_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
_LIVE_STATUS = re.compile(r"^(?P<done>\d+)/(?P<total>\d+)\s*(?P<counts>.*)$")
_EMOJI_COUNT = re.compile(r"(\S)\s+(\d+)")


class ProgressRelay:
    """Reads mutmut's output and writes progress to `out`; keeps the last lines for errors.

    While mutants run, mutmut's status line gives the live tally; the verdict lines
    it prints per mutant give the final one. `total` is called once the first verdict
    line arrives (the mutants exist by then).
    """

    def __init__(self, out: IO[str], total: Callable[[], int], *, every: float = 5.0) -> None:
        self.out = out
        self.total = total
        self.every = every
        self.tally: dict[str, int] = {}
        self.tail: deque[str] = deque(maxlen=60)
        self._phase = ""
        self._pending = ""  # a line cut by the read size, completed by the next piece
        self._expected: int | None = None
        self._last_report = float("-inf")

    def feed(self, text: str) -> None:
        """Take a piece of mutmut's output (any split)."""
        *complete, self._pending = (self._pending + text).replace("\r", "\n").split("\n")
        for fragment in complete:
            self._line(fragment.strip())

    def _line(self, line: str) -> None:
        if not line:
            return
        status = _STATUS_BY_EMOJI.get(line[:1])
        if status and "__mutmut_" in line:
            self.tally[status] = self.tally.get(status, 0) + 1
            self._report(force=False)
            return
        if line[:1] in _SPINNER:
            phase = line[1:].strip()
            live = _LIVE_STATUS.match(phase)
            if live:
                self._live(int(live["done"]), int(live["total"]), live["counts"])
            elif phase and phase != self._phase:
                self._phase = phase
                self._write(f"mutmut: {phase}")
            return
        self.tail.append(line)

    def _live(self, done: int, total: int, counts: str) -> None:
        # mutmut's status line while mutants run: "12/66  🎉 10 🫥 0  ⏰ 0 ..."
        now = time.monotonic()
        if now - self._last_report < self.every:
            return
        self._last_report = now
        tally = {
            _STATUS_BY_EMOJI[e]: int(n)
            for e, n in _EMOJI_COUNT.findall(counts)
            if e in _STATUS_BY_EMOJI and int(n)
        }
        detail = ", ".join(f"{n} {s}" for s, n in sorted(tally.items()))
        self._write(f"mutants checked: {done}/{total} ({detail})")

    def _report(self, *, force: bool) -> None:
        now = time.monotonic()
        if not force and now - self._last_report < self.every:
            return
        self._last_report = now
        if self._expected is None:
            self._expected = self.total()
        done = sum(self.tally.values())
        detail = ", ".join(f"{n} {s}" for s, n in sorted(self.tally.items()))
        self._write(f"mutants checked: {done}/{self._expected} ({detail})")

    def finish(self) -> None:
        """Write the final tally."""
        self._line(self._pending.strip())
        self._pending = ""
        if self.tally:
            self._report(force=True)

    def _write(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()
