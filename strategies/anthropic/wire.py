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

from collections.abc import Callable, Sequence
from typing import Unpack

from hypothesis import strategies as st

from refold.reference import JSON

from ..wire import Variations, event_name, named_sse_bytes

__all__ = ["event_name", "sse_bytes"]

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


def _flushed(*, empty_frames: bool, empty_data: bool) -> Callable[[st.DrawFn], list[str]]:
    """What a proxy may send before a frame: an `event:` line flushed without data (which
    WHATWG never dispatches) and, when `empty_data`, a frame with empty data."""

    def lines(draw: st.DrawFn) -> list[str]:
        flushed: list[str] = []
        if empty_frames and draw(st.booleans()):
            flushed += ["event: ping", ""]
        if empty_data and draw(st.booleans()):
            flushed += draw(_EMPTY_DATA_FRAMES)
        return flushed

    return lines


def sse_bytes(
    events: Sequence[JSON],
    *,
    event_lines: bool | None = None,
    empty_frames: bool = True,
    empty_data: bool = False,
    wrong_names: bool = False,
    **variations: Unpack[Variations],
) -> st.SearchStrategy[list[bytes]]:
    """The `events` as an event stream of bytes, cut into the pieces a client receives.

    Every drawn stream decodes, under the WHATWG rules, to one event per item whose data
    is that item's JSON. `event_lines` True names every frame by its `type`, False names
    none (the WHATWG default `message`), None draws it per frame. `empty_frames` adds
    `event:` lines without data, which WHATWG never dispatches. `empty_data` adds frames
    whose data is empty (`data:` or `data: ` alone, named or not), which WHATWG dispatches
    and the dialect's decoder skips (AM-SSE-EMPTY). `wrong_names` lets a
    named frame carry a name other than its data's `type` (or a name on data without
    one), which a conforming decoder ignores (AM-SSE-TYPE: the data's `type` wins).
    `variations` are those of `refold.strategies.wire.sse_bytes`, each on by default.
    """
    return named_sse_bytes(
        events,
        event_lines=event_lines,
        flushed=_flushed(empty_frames=empty_frames, empty_data=empty_data),
        wrong_names=_WRONG_NAMES if wrong_names else None,
        **variations,
    )
