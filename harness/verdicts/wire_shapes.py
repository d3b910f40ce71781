"""The shape of a stream's bytes (verdicts.md §1 at the wire): how its SSE framing departs.

A failure of a wire rule (feature `sse`) is found on bytes, not only on the items they
carry: `data:`-only frames decode to the same events as named ones, so the events alone
would call a stream documented that no provider sends. The providers whose decoders hand
items to the fold (Anthropic Messages, OpenAI Responses) document their framing by
example, and every example is the same: one frame per event, an `event:` line naming the
data's `type`, one `data: ` line holding the JSON, a blank line, LF line ends. Cutting the
bytes into pieces anywhere is the transport's doing, never a departure.

This module reads the frames of the joined bytes and names, in dialect-neutral *kinds*,
where they depart from that framing; a dialect maps each kind to one of its registered
departures (`refold.verdicts.shapes.StreamShapes.wire`), since who is known to send it (a proxy
that drops `event:` lines, AQ30) is the dialect's evidence. Standard library only, linear
in the bytes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal

__all__ = ["FRAME_KINDS", "FrameKind", "framing_departures"]

FrameKind = Literal["unnamed", "empty", "misnamed", "framing", "not-json"]
"""How a frame departs: `unnamed`, no `event:` line; `empty`, an `event:` line without
data or a `data:` line that is empty; `misnamed`, a name other than the data's `type`;
`framing`, anything else the examples never show (comments, `id:`/`retry:` or unknown
fields, several `data:` lines, `data:` without its space, CR line ends, a BOM, repeated
blank lines, bytes that are not UTF-8); `not-json`, data that is not JSON."""

FRAME_KINDS: tuple[FrameKind, ...] = ("unnamed", "empty", "misnamed", "framing", "not-json")


def framing_departures(parts: Sequence[bytes]) -> dict[FrameKind, list[int]]:
    """Each kind of departure the bytes show, with the numbers (from 0) of the frames that
    depart that way; {} for the documented framing."""
    try:
        text = b"".join(parts).decode("utf-8")
    except UnicodeDecodeError:
        return {"framing": [0]}
    found: dict[FrameKind, list[int]] = {}
    if text.startswith("\ufeff") or "\r" in text:
        found["framing"] = [0]
    frames = text.replace("\r\n", "\n").replace("\r", "\n").split("\n\n")
    # after the last blank line: an unterminated frame, never dispatched (a cut stream
    # shows in its items, the terminal event missing), or more blank lines
    ended = frames.pop()
    if ended and not ended.strip("\n"):
        numbers = found.setdefault("framing", [])
        numbers += [] if len(frames) in numbers else [len(frames)]
    for number, frame in enumerate(frames):
        for kind in _frame_departures(frame):
            numbers = found.setdefault(kind, [])
            if number not in numbers:
                numbers.append(number)
    return found


def _frame_departures(frame: str) -> set[FrameKind]:
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
    return kinds | _named_departures(names, "\n".join(data))


def _named_departures(names: list[str], data: str) -> set[FrameKind]:
    """Whether a frame with data carries JSON and the name of its `type`."""
    try:
        value = json.loads(data)
    except ValueError:
        return {"not-json"}
    if not names:
        return {"unnamed"}
    kind = value.get("type") if isinstance(value, dict) else None
    return set() if names[-1] == kind else {"misnamed"}
