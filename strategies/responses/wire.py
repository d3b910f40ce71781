"""Wire strategies: a Responses event stream as the bytes a server sends, cut anywhere.

`sse_bytes(events)` writes each event as one SSE frame whose `event:` line names the
data's `type`, as OpenAI does (or, with `event_lines=False` or None, without it, as some
gateways do), plus the lossless WHATWG variations of `refold.strategies.wire`: comment
keep-alives, LF/CRLF/CR line ends, `data:` with or without its space, JSON spread over
several `data:` lines, extra blank lines. There is no `[DONE]`. The bytes are then cut
anywhere, preferring inside a UTF-8 character and between CR and LF; it shrinks toward
one piece.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from refold.reference import JSON

from ..wire import _cut, _joined, _line_ends, frame_lines

__all__ = ["event_name", "sse_bytes"]

_MAX_CUTS = 24


def event_name(item: JSON) -> str | None:
    """The `event:` name OpenAI writes for `item`: its `type`, when that can be one."""
    kind = item.get("type") if isinstance(item, dict) else None
    if isinstance(kind, str) and kind.strip() and not any(c in kind for c in "\r\n"):
        return kind
    return None


@st.composite
def sse_bytes(
    draw: st.DrawFn,
    events: Sequence[JSON],
    *,
    event_lines: bool | None = True,
    keep_alives: bool = True,
    mixed_line_ends: bool = True,
    multiline_data: bool = True,
    max_cuts: int = _MAX_CUTS,
) -> list[bytes]:
    """The `events` as an event stream of bytes, cut into the non-empty pieces a client
    receives.

    Every drawn stream decodes, under the WHATWG rules, to one event per item whose data
    is that item's JSON. `event_lines` True names every frame by its `type` (OpenAI's
    shape), False names none (the WHATWG default `message`), None draws it per frame.
    """
    line_end = draw(_line_ends(mixed=mixed_line_ends))
    lines: list[str] = []
    for item in events:
        named = draw(st.booleans()) if event_lines is None else event_lines
        lines += draw(
            frame_lines(
                item,
                name=event_name(item) if named else None,
                keep_alives=keep_alives,
                multiline=multiline_data,
            )
        )
    encoded = _joined(lines, [draw(line_end) for _ in lines]).encode("utf-8")
    return draw(_cut(encoded, max_cuts=max_cuts))
