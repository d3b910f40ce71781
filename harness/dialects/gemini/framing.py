"""The body of a Gemini stream, in either of its framings, decoded into its chunks.

`streamGenerateContent` answers Server-Sent Events with `?alt=sse` and one streamed JSON
array without it (gemini-fold.md, GM-WIRE-SSE and GM-WIRE-ARRAY, both feature `sse`). A
target's `sse` decoder is one callable of byte pieces, so the body itself says which
framing it is: an array body (or the bare error object a failed request answers) starts,
after an optional BOM and JSON whitespace, with `[` or `{`, which no SSE line the API
sends starts with (every one is a `data:` field, a comment or blank). This is the
harness's convention for handing a target either body, not a rule of the spec; the
reference target and the generic SSE suite's expectation both read it so.

`wire_departures` tells how a body departs from Google's framing, in the neutral kinds of
`refold.verdicts.wire_shapes`: unnamed SSE frames, or a JSON array whose elements are
separated by commas and any JSON whitespace (`\\r\\n,\\r\\n` as Google writes it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from refold.reference import JSON
from refold.reference.gemini import ChunkDataError, decode_array, decode_sse
from refold.verdicts.wire_shapes import FrameKind, framing_departures

__all__ = ["decode_body", "is_array_body", "wire_departures"]

_BOM = b"\xef\xbb\xbf"
_JSON_WHITESPACE = b" \t\n\r"
_JSON_WHITESPACE_TEXT = _JSON_WHITESPACE.decode()


def is_array_body(body: bytes) -> bool:
    """Whether `body` is the JSON-array framing (or a bare JSON object) rather than SSE."""
    return body.removeprefix(_BOM).lstrip(_JSON_WHITESPACE)[:1] in (b"[", b"{")


def decode_body(parts: Iterable[bytes]) -> list[JSON]:
    """The chunks of a whole body given as byte pieces, in its framing (`is_array_body`).

    Raises:
        refold.reference.gemini.ChunkDataError: the body breaks its framing's rule.
    """
    pieces = list(parts)
    if is_array_body(b"".join(pieces)):
        return decode_array(pieces)
    return decode_sse(pieces)


def wire_departures(parts: Sequence[bytes]) -> dict[FrameKind, list[int]]:
    """Each kind of framing departure of a whole body given as byte pieces, with the
    numbers (from 0) of the frames or array elements that depart; {} for Google's own."""
    body = b"".join(parts)
    if not is_array_body(body):
        return framing_departures(parts, named=False)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return {"framing": [0]}
    found: dict[FrameKind, list[int]] = {}
    bare = text.lstrip("\ufeff" + _JSON_WHITESPACE_TEXT).startswith("{")
    bom = [0] if text.startswith("\ufeff") else []
    empty = [] if bare else _empty_elements(text)
    if bom or empty:
        found["framing"] = sorted({*bom, *empty})
    try:
        decode_array([body])
    except ChunkDataError as exc:
        # an element that is not JSON names its pointer /n; the body's own framing ""
        kind: FrameKind = "not-json" if exc.pointer else "framing"
        numbers = found.setdefault(kind, [])
        numbers.append(exc.chunk_number)
    return found


def _empty_elements(text: str) -> list[int]:
    """The numbers of the array body's empty elements (nothing but whitespace between two
    commas, or between a comma and the closing bracket, or the bracket and a comma)."""
    depth, in_string, escaped = 0, False, False
    found: list[int] = []
    number, filled = 0, False
    for char in text:
        if in_string:
            in_string = escaped or char != '"'
            escaped = not escaped and char == "\\"
            continue
        if depth == 1 and char in ",]":
            if not filled and (char == "," or number):
                found.append(number)
            number, filled = number + 1, False
        elif depth >= 1 and char not in _JSON_WHITESPACE_TEXT:
            filled = True
        in_string = char == '"'
        depth += (char in "[{") - (char in "]}")
    return found
