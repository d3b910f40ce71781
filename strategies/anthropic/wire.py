"""Wire strategies: an Anthropic event stream as the bytes a server sends, cut anywhere.

`sse_bytes(events)` writes each event as one SSE frame, with its `event:` line naming the
data's `type` (as Anthropic does) or without it (as Anthropic-compatible proxies do,
AM-SSE-TYPE), plus the lossless WHATWG variations of `refold.strategies.wire`: comment
keep-alives, LF/CRLF/CR line ends, `data:` with or without its space, JSON spread over
several `data:` lines, extra blank lines, `event:` lines flushed without data, and
optionally frames whose data is empty, which WHATWG dispatches and the dialect's decoder
skips (both AM-SSE-EMPTY). There is no `[DONE]`. The bytes are then cut anywhere,
preferring inside a UTF-8 character and between CR and LF; it shrinks toward one piece.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from refold.reference import JSON

from ..wire import _cut, _joined, _line_ends, frame_lines

__all__ = ["sse_bytes"]

_MAX_CUTS = 24
_WRONG_NAMES = st.sampled_from(["message", "ping", "message_stop", "error", "completion"])
_EMPTY_DATA_FRAMES = st.sampled_from(
    [
        ["data:", ""],
        ["data: ", ""],
        ["event: ping", "data:", ""],
        ["event: content_block_delta", "data: ", ""],
        ["event: error", "data:", ""],
    ]
)
"""Frames a proxy flushes with empty data: each fires a WHATWG event with data \"\"."""


def event_name(item: JSON) -> str | None:
    """The `event:` name Anthropic writes for `item`: its `type`, when that can be one."""
    kind = item.get("type") if isinstance(item, dict) else None
    if isinstance(kind, str) and kind.strip() and not any(c in kind for c in "\r\n"):
        return kind
    return None


@st.composite
def sse_bytes(
    draw: st.DrawFn,
    events: Sequence[JSON],
    *,
    event_lines: bool | None = None,
    keep_alives: bool = True,
    mixed_line_ends: bool = True,
    multiline_data: bool = True,
    empty_frames: bool = True,
    empty_data: bool = False,
    wrong_names: bool = False,
    max_cuts: int = _MAX_CUTS,
) -> list[bytes]:
    """The `events` as an event stream of bytes, cut into the pieces a client receives.

    Every drawn stream decodes, under the WHATWG rules, to one event per item whose data
    is that item's JSON. `event_lines` True names every frame by its `type`, False names
    none (the WHATWG default `message`), None draws it per frame. `empty_frames` adds
    `event:` lines without data, which WHATWG never dispatches. `empty_data` adds frames
    whose data is empty (`data:` or `data: ` alone, named or not), which WHATWG dispatches
    and the dialect's decoder skips (AM-SSE-EMPTY). `wrong_names` lets a
    named frame carry a name other than its data's `type` (or a name on data without
    one), which a conforming decoder ignores (AM-SSE-TYPE: the data's `type` wins).
    """
    line_end = draw(_line_ends(mixed=mixed_line_ends))
    lines: list[str] = []
    for item in events:
        if empty_frames and draw(st.booleans()):
            lines += ["event: ping", ""]
        if empty_data and draw(st.booleans()):
            lines += draw(_EMPTY_DATA_FRAMES)
        named = draw(st.booleans()) if event_lines is None else event_lines
        name = event_name(item) if named else None
        if named and wrong_names and draw(st.booleans()):
            name = draw(_WRONG_NAMES)
        lines += draw(
            frame_lines(item, name=name, keep_alives=keep_alives, multiline=multiline_data)
        )
    encoded = _joined(lines, [draw(line_end) for _ in lines]).encode("utf-8")
    return draw(_cut(encoded, max_cuts=max_cuts))
