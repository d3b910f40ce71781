"""Progress while mutmut runs: its spinner output turned into a few readable lines.

mutmut redraws a spinner with carriage returns and prints one emoji-led line per
checked mutant. In a CI log that is megabytes of noise, so the relay prints each
phase once and a tally of the verdicts at most every few seconds.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import IO

__all__ = ["ProgressRelay"]

_STATUS_BY_EMOJI = {
    "🎉": "killed", "🙁": "survived", "⏰": "timeout", "🫥": "no tests", "🤔": "suspicious",
    "🔇": "skipped", "🧙": "caught by type check", "💥": "segfault", "🛑": "interrupted",
}
_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class ProgressRelay:
    """Reads mutmut's output and writes progress to `out`; keeps the last lines for errors.

    `total` is called once the first verdict arrives (the mutants exist by then).
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
        self._last_report = 0.0

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
            if phase and not phase[:1].isdigit() and phase != self._phase:
                self._phase = phase
                self._write(f"mutmut: {phase}")
            return
        self.tail.append(line)

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
