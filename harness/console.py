"""Text a target produced, made safe for a terminal.

A target's strings (its answer, its stderr, its name and description) reach the
terminal in failure messages and the result table. Raw ESC, OSC and other C0/C1
control characters there would move the cursor, recolour, retitle the window or hide
text, so each is shown visibly as its JSON escape (`\\u001b` for ESC); tabs and line
breaks are kept.
"""

from __future__ import annotations

import re

from refold.reference import cut_text

__all__ = ["LINE_BYTES", "printable"]

LINE_BYTES = 16 * 1024
"""How much of one line of a failure message is kept."""

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str, limit: int = LINE_BYTES) -> str:
    """`text` cut to `limit` bytes, its control characters (but tab and newline) escaped."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", cut_text(text, limit))
