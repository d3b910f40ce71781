"""Text a target produced, made safe for a terminal.

A target's strings (its answer, its stderr, its exceptions, its name and description)
reach the terminal in failure messages, pytest's tracebacks and the result table. Raw
ESC, OSC and other C0/C1 control characters there would move the cursor, recolour,
retitle the window or hide text, so each is shown visibly as its JSON escape (`\\u001b`
for ESC); tabs and line breaks are kept. What pytest prints of a failed conformance test
passes through the persisted documents' scrubber too (`refold.records.redaction.persisted_text`:
credentials, the environment's canaries, local paths relative to named roots), since a CI
log is kept as well.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from refold.reference import JSON, cut_text

from ..records.redaction import persisted_text

__all__ = ["LINE_BYTES", "escape_report", "format_chunks", "printable"]

LINE_BYTES = 16 * 1024
"""How much of one line of a failure message is kept."""

_SECTION_BYTES = 1024 * 1024
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_LINE_BREAKS = {ord(c): f"\\u{ord(c):04x}" for c in "\x85\u2028\u2029"}
"""Line breaks to `str.splitlines` that `json.dumps(ensure_ascii=False)` leaves raw."""


def printable(text: str, limit: int = LINE_BYTES) -> str:
    """`text` cut to `limit` bytes, its control characters (but tab and newline) escaped."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", cut_text(text, limit))


def escape_report(report: Any) -> None:
    """Escape and scrub, in place, what pytest will print of a failed test: the exception
    chain (which quotes the exceptions a target raised, and the paths of its frames) and the
    captured output sections."""
    longrepr = report.longrepr
    if isinstance(longrepr, str):
        report.longrepr = _shown(longrepr, _SECTION_BYTES)
        return
    chain = getattr(longrepr, "chain", None)
    if chain is None:
        chain = [
            (getattr(longrepr, "reprtraceback", None), getattr(longrepr, "reprcrash", None), None)
        ]
    for traceback, crash, _ in chain:
        for entry in getattr(traceback, "reprentries", ()):
            entry.lines = [_shown(line) for line in entry.lines]
            for part in (getattr(entry, "reprlocals", None),):
                if part is not None:
                    part.lines = [_shown(line) for line in part.lines]
            _scrub_location(getattr(entry, "reprfileloc", None))
        _scrub_location(crash)
    report.sections = [(title, _shown(text, _SECTION_BYTES)) for title, text in report.sections]


def _shown(text: str, limit: int = LINE_BYTES) -> str:
    # Scrubbed within a head of the text: `printable` keeps no more than `limit` of it.
    return printable(persisted_text(cut_text(text, 4 * limit)), limit)


def _scrub_location(location: Any) -> None:
    """A frame's or the crash's file location (path and message), scrubbed in place."""
    if location is None:
        return
    location.path = _shown(str(location.path))
    location.message = _shown(location.message)


def format_chunks(chunks: Sequence[JSON]) -> str:
    """Render a stream as JSON lines, the form failures and replay files use.

    Non-ASCII text stays readable, except the characters `str.splitlines`, editors and
    terminals break lines at that JSON leaves unescaped (NEL, U+2028, U+2029): escaped,
    each chunk stays one line, and the line is still the same JSON.
    """
    return "\n".join(
        json.dumps(c, ensure_ascii=False, separators=(",", ":")).translate(_LINE_BREAKS)
        for c in chunks
    )
