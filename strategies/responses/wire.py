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
from typing import Unpack

from hypothesis import strategies as st

from refold.reference import JSON

from ..wire import Variations, event_name, named_sse_bytes

__all__ = ["event_name", "sse_bytes"]


def sse_bytes(
    events: Sequence[JSON],
    *,
    event_lines: bool | None = True,
    **variations: Unpack[Variations],
) -> st.SearchStrategy[list[bytes]]:
    """The `events` as an event stream of bytes, cut into the non-empty pieces a client
    receives.

    Every drawn stream decodes, under the WHATWG rules, to one event per item whose data
    is that item's JSON. `event_lines` True names every frame by its `type` (OpenAI's
    shape), False names none (the WHATWG default `message`), None draws it per frame.
    `variations` are those of `refold.strategies.wire.sse_bytes`, each on by default.
    """
    return named_sse_bytes(events, event_lines=event_lines, **variations)
