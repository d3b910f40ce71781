"""Wire strategies: a Gemini chunk stream as the bytes a server sends, cut anywhere.

`sse_bytes(chunks)` is the `alt=sse` framing: one SSE event per chunk, no event names and
no terminal sentinel (GM-WIRE-SSE), with the lossless WHATWG variations of
`refold.strategies.wire`. `array_bytes(chunks)` is the framing without `alt=sse`: one JSON
array whose elements are the chunks, separated as Google writes them (`\\r\\n,\\r\\n`) or
compactly, maybe pretty-printed, with a BOM (GM-WIRE-ARRAY). Both cut the bytes anywhere,
preferring inside a UTF-8 character and between CR and LF, and shrink toward one piece.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Unpack

from hypothesis import strategies as st

from refold.reference import JSON

from .. import wire as _wire
from ..wire import Variations, _cut

__all__ = ["array_bytes", "sse_bytes"]

_MAX_CUTS = 24
_SEPARATORS = st.sampled_from([",", "\r\n,\r\n", ", ", "\n,\n", " ,\t"])
_EDGES = st.sampled_from(["", "\n", "\r\n", " "])


def sse_bytes(
    chunks: Sequence[JSON], *, bom: bool = False, **variations: Unpack[Variations]
) -> st.SearchStrategy[list[bytes]]:
    """The `chunks` as an `alt=sse` event stream of bytes, cut into the pieces a client
    receives. Every drawn stream decodes to exactly `chunks`; there is never a `[DONE]`.
    Google's own framing is `data: <json>` and one blank line per chunk, LF line ends (CR LF
    throughout is observed, GMD-WIRE-CRLF); keep-alive comments, bare CR or mixed line
    ends, multi-line data, `data:` without its space and extra blank lines are
    GMD-WIRE-FRAMING (the docs show none). The first three can be turned off
    (`variations`, those of `refold.strategies.wire.sse_bytes`)."""
    return _wire.sse_bytes(chunks, done=False, bom=bom, **variations)


@st.composite
def array_bytes(
    draw: st.DrawFn,
    chunks: Sequence[JSON],
    *,
    bom: bool | None = None,
    empty_elements: bool = False,
    max_cuts: int = _MAX_CUTS,
) -> list[bytes]:
    """The `chunks` as one streamed JSON array of bytes, cut into the pieces a client
    receives. Every drawn body decodes to exactly `chunks`. `bom` starts the body with a
    byte order mark (None: drawn). `empty_elements` adds empty elements between commas,
    which the decoder skips ([ext], GMD-WIRE-FRAMING)."""
    elements: list[str] = []
    for chunk in chunks:
        indent = draw(st.sampled_from([None, 2]))
        elements.append(json.dumps(chunk, ensure_ascii=draw(st.booleans()), indent=indent))
        if empty_elements and draw(st.booleans()):
            elements.append(draw(_EDGES))
    body = "[" + draw(_EDGES)
    for number, element in enumerate(elements):
        if number:
            body += draw(_SEPARATORS)
        body += element
    body += draw(_EDGES) + "]"
    if bom is None:
        bom = draw(st.booleans())
    encoded = (b"\xef\xbb\xbf" if bom else b"") + body.encode("utf-8")
    return draw(_cut(encoded, max_cuts=max_cuts))
