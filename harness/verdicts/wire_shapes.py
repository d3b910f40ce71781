"""The shape of a stream's bytes (verdicts.md §1 at the wire): how its SSE framing departs.

A failure of a wire rule (feature `sse`) is found on bytes, not only on the items they
carry: `data:`-only frames decode to the same events as named ones, so the events alone
would call a stream documented that no provider sends. The providers whose decoders hand
items to the fold document their framing by example. Anthropic Messages and OpenAI
Responses *name* their frames, and every example is the same: one frame per event, an
`event:` line naming the data's `type`, one `data: ` line holding the JSON, a blank line,
LF line ends. Gemini's `alt=sse` frames are *unnamed*: the same without the `event:` line.
Cutting the bytes into pieces anywhere is the transport's doing, never a departure.

This module reads the frames of the joined bytes and names, in dialect-neutral *kinds*,
where they depart from that framing; a dialect maps each kind to one of its registered
departures (`refold.verdicts.shapes.StreamShapes.wire`), since who is known to send it (a proxy
that drops `event:` lines, AQ30; CR LF line ends from Gemini) is the dialect's evidence.
Standard library only, linear in the bytes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal

__all__ = ["FRAME_KINDS", "FrameKind", "framing_departures"]

FrameKind = Literal["unnamed", "empty", "misnamed", "framing", "not-json", "crlf"]
"""How a frame departs: `unnamed`, no `event:` line (named frames); `empty`, an `event:`
line without data or a `data:` line that is empty; `misnamed`, a name other than the
data's `type` (named frames) or any `event:` line (unnamed frames); `framing`, anything
else the examples never show (comments, `id:`/`retry:` or unknown fields, several `data:`
lines, `data:` without its space, bare CR or mixed line ends, a BOM, repeated blank lines,
bytes that are not UTF-8); `not-json`, data that is not JSON; `crlf`, every line ended by
CR LF (the whole body: frame 0)."""

FRAME_KINDS: tuple[FrameKind, ...] = (
    "unnamed",
    "empty",
    "misnamed",
    "framing",
    "not-json",
    "crlf",
)


def framing_departures(parts: Sequence[bytes], *, named: bool = True) -> dict[FrameKind, list[int]]:
    """Each kind of departure the bytes show, with the numbers (from 0) of the frames that
    depart that way; {} for the documented framing: named frames (an `event:` line
    naming the data's `type`), or unnamed ones when `named` is False."""
    try:
        text = b"".join(parts).decode("utf-8")
    except UnicodeDecodeError:
        return {"framing": [0]}
    found: dict[FrameKind, list[int]] = {}
    line_ends = _line_ends(text)
    if line_ends is not None:
        found[line_ends] = [0]
    if text.startswith("\ufeff"):
        found["framing"] = [0]
    frames = text.replace("\r\n", "\n").replace("\r", "\n").split("\n\n")
    # after the last blank line: an unterminated frame, never dispatched (a cut stream
    # shows in its items, the terminal event missing), or more blank lines
    ended = frames.pop()
    if ended and not ended.strip("\n"):
        numbers = found.setdefault("framing", [])
        numbers += [] if len(frames) in numbers else [len(frames)]
    for number, frame in enumerate(frames):
        for kind in _frame_departures(frame, named=named):
            numbers = found.setdefault(kind, [])
            if number not in numbers:
                numbers.append(number)
    return found


def _line_ends(text: str) -> FrameKind | None:
    """`crlf` when every line of `text` ends with CR LF, `framing` for a bare CR or a mix
    of line ends, None when every one is LF."""
    if "\r" not in text:
        return None
    crlf = text.count("\r\n")
    return "crlf" if crlf == text.count("\r") == text.count("\n") else "framing"


def _frame_departures(frame: str, *, named: bool) -> set[FrameKind]:
    """How one frame (its lines, without the blank line that ends it) departs."""
    if frame == "":
        return {"framing"}  # a second blank line in a row
    names: list[str] = []
    data: list[str] = []
    kinds: set[FrameKind] = set()
    for line in frame.split("\n"):
        field, colon, value = line.partition(":")
        if field == "event" and colon:
            names.append(value[1:] if value.startswith(" ") else value)
        elif field == "data" and colon:
            if not value.startswith(" "):
                kinds.add("framing")
            data.append(value[1:] if value.startswith(" ") else value)
        else:
            kinds.add("framing")  # a comment, another field, or a line with no colon
    if len(names) > 1 or len(data) > 1:
        kinds.add("framing")
    if not data:
        return kinds | ({"empty"} if names else set())
    if not "".join(data).strip():
        return kinds | {"empty"}
    return kinds | _named_departures(names, "\n".join(data), named=named)


def _named_departures(names: list[str], data: str, *, named: bool) -> set[FrameKind]:
    """Whether a frame with data carries JSON and the name of its `type` (named frames)
    or no name (unnamed ones)."""
    try:
        value = json.loads(data)
    except ValueError:
        return {"not-json"}
    if not named:
        return {"misnamed"} if names else set()
    if not names:
        return {"unnamed"}
    kind = value.get("type") if isinstance(value, dict) else None
    return set() if names[-1] == kind else {"misnamed"}
