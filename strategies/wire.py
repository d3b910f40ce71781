"""Wire strategies: a chunk stream as the bytes a real server sends, cut where the network cuts.

`sse_bytes(chunks)` serialises chunks as a `text/event-stream` with the variations real
servers use, all lossless under the WHATWG rules: comment keep-alives (`: OPENROUTER
PROCESSING`), LF, CRLF or CR line ends (or a mix), `data:` with or without its space, a JSON
object spread over several `data:` lines, extra blank lines, and `[DONE]` or a plain end of
stream. It then cuts the bytes anywhere, preferring the cuts that break naive decoders:
inside a multi-byte UTF-8 character and between the CR and the LF of a CRLF. It shrinks
toward one piece, LF line ends and `data: ` with its space.

    >>> from hypothesis import given
    >>> from refold.reference.sse import decode_chunks
    >>> chunks = [{"id": "c1", "choices": [{"index": 0, "delta": {"content": "€"}}]}]
    >>> @given(sse_bytes(chunks))
    ... def test_decodes(parts): assert decode_chunks(parts) == chunks
    >>> test_decodes()
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from typing import TypedDict

from hypothesis import strategies as st

from refold.reference import JSON
from refold.reference.sse import event_name

__all__ = [
    "KEEP_ALIVE_COMMENTS",
    "LINE_ENDS",
    "Variations",
    "event_name",
    "frame_lines",
    "named_sse_bytes",
    "sse_bytes",
]

LINE_ENDS = ("\n", "\r\n", "\r")
"""The three line ends WHATWG accepts, simplest first (shrinking goes toward LF)."""

KEEP_ALIVE_COMMENTS = (": OPENROUTER PROCESSING", ": ping", ":", ": keep-alive \u00e9")
"""Comment lines servers send between events to keep a connection open."""

_MAX_CUTS = 24


class Variations(TypedDict, total=False):
    """The lossless WHATWG variations of `sse_bytes`, as a dialect's framing takes them."""

    keep_alives: bool
    mixed_line_ends: bool
    multiline_data: bool
    max_cuts: int


@st.composite
def sse_bytes(
    draw: st.DrawFn,
    chunks: Sequence[JSON],
    *,
    keep_alives: bool = True,
    mixed_line_ends: bool = True,
    multiline_data: bool = True,
    done: bool | None = None,
    bom: bool = False,
    max_cuts: int = _MAX_CUTS,
) -> list[bytes]:
    """The `chunks` as an event stream of bytes, cut into the pieces a client receives.

    Every drawn stream decodes, under the WHATWG rules, to exactly `chunks`. `done` says
    whether `data: [DONE]` ends the stream (None: drawn). `bom` starts the stream with a
    byte order mark, which WHATWG ignores and some decoders do not. `max_cuts` bounds the
    number of cuts; the pieces are never empty.
    """
    line_end = draw(_line_ends(mixed=mixed_line_ends))
    lines: list[str] = []
    for chunk in chunks:
        lines += draw(frame_lines(chunk, keep_alives=keep_alives, multiline=multiline_data))
    if done is None:
        done = draw(st.booleans())
    if done:
        lines += ["data: [DONE]", ""]
    encoded = _joined(lines, [draw(line_end) for _ in lines]).encode("utf-8")
    if bom:
        encoded = b"\xef\xbb\xbf" + encoded
    return draw(_cut(encoded, max_cuts=max_cuts))


@st.composite
def named_sse_bytes(
    draw: st.DrawFn,
    items: Sequence[JSON],
    *,
    event_lines: bool | None,
    keep_alives: bool = True,
    mixed_line_ends: bool = True,
    multiline_data: bool = True,
    max_cuts: int = _MAX_CUTS,
    flushed: Callable[[st.DrawFn], list[str]] | None = None,
    wrong_names: st.SearchStrategy[str] | None = None,
) -> list[bytes]:
    """The `items` as an event stream of bytes, one frame each, named by its data's `type`
    (`event_name`) or not, cut into the pieces a client receives; there is no `[DONE]`.

    Every drawn stream decodes, under the WHATWG rules, to one event per item whose data
    is that item's JSON. `event_lines` True names every frame, False none (the WHATWG
    default `message`), None draws it per frame. `flushed` draws the lines sent before
    each frame that dispatch no item (frames without data, or with data the dialect's
    decoder skips). `wrong_names` is drawn from, or not, for the name of a named frame:
    one other than its data's `type`, which a conforming decoder ignores.
    """
    line_end = draw(_line_ends(mixed=mixed_line_ends))
    lines: list[str] = []
    for item in items:
        if flushed is not None:
            lines += flushed(draw)
        named = draw(st.booleans()) if event_lines is None else event_lines
        name = event_name(item) if named else None
        if named and wrong_names is not None and draw(st.booleans()):
            name = draw(wrong_names)
        lines += draw(
            frame_lines(item, name=name, keep_alives=keep_alives, multiline=multiline_data)
        )
    encoded = _joined(lines, [draw(line_end) for _ in lines]).encode("utf-8")
    return draw(_cut(encoded, max_cuts=max_cuts))


def _joined(lines: list[str], ends: list[str]) -> str:
    """Join lines with their ends; an LF ending an empty line right after a CR would
    merge with it into one CRLF and lose the line, so that LF becomes a CRLF."""
    text = ""
    for line, end in zip(lines, ends, strict=True):
        if not line and end == "\n" and text.endswith("\r"):
            end = "\r\n"
        text += line + end
    return text


def _line_ends(*, mixed: bool) -> st.SearchStrategy[st.SearchStrategy[str]]:
    one = st.sampled_from(LINE_ENDS).map(st.just)
    if not mixed:
        return one
    return st.one_of(one, st.just(st.sampled_from(LINE_ENDS)))


@st.composite
def frame_lines(
    draw: st.DrawFn,
    item: JSON,
    *,
    keep_alives: bool,
    multiline: bool,
    name: str | None = None,
) -> list[str]:
    """The lines of one SSE frame carrying `item` as JSON: keep-alive comments first when
    `keep_alives`, an `event: <name>` line when `name` is given, the data (over several
    `data:` lines when `multiline`, ASCII-escaped or not, with or without the space) and
    one to three blank lines."""
    lines: list[str] = []
    if keep_alives:
        lines += draw(st.lists(st.sampled_from(KEEP_ALIVE_COMMENTS), max_size=2))
    if name is not None:
        lines.append(f"event: {name}")
    indent = draw(st.sampled_from([None, 0, 1])) if multiline else None
    ascii_only = draw(st.booleans())
    payload = json.dumps(item, ensure_ascii=ascii_only, indent=indent)
    space = draw(st.sampled_from([" ", ""]))
    lines += [f"data:{space}{line}" for line in payload.split("\n")]
    lines.append("")
    if draw(st.booleans()):
        lines += [""] * draw(st.integers(1, 2))
    return lines


@st.composite
def _cut(draw: st.DrawFn, data: bytes, *, max_cuts: int) -> list[bytes]:
    if len(data) < 2 or max_cuts <= 0:
        return [data]
    anywhere = st.integers(1, len(data) - 1)
    awkward = _awkward_cuts(data)
    position = st.one_of(anywhere, st.sampled_from(awkward)) if awkward else anywhere
    cuts = sorted(draw(st.sets(position, max_size=max_cuts)))
    bounds = [0, *cuts, len(data)]
    return [data[start:end] for start, end in itertools.pairwise(bounds)]


def _awkward_cuts(data: bytes) -> list[int]:
    """Cut positions inside a multi-byte UTF-8 character or between a CR and its LF."""
    positions = []
    for position in range(1, len(data)):
        byte, before = data[position], data[position - 1]
        if 0x80 <= byte < 0xC0 or (before == 0x0D and byte == 0x0A):
            positions.append(position)
    return positions
