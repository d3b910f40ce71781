"""The body of a Gemini stream, in either of its framings, decoded into its chunks.

`streamGenerateContent` answers Server-Sent Events with `?alt=sse` and one streamed JSON
array without it (gemini-fold.md, GM-WIRE-SSE and GM-WIRE-ARRAY, both feature `sse`). A
target's `sse` decoder is one callable of byte pieces, so the body itself says which
framing it is: an array body (or the bare error object a failed request answers) starts,
after an optional BOM and JSON whitespace, with `[` or `{`, which no SSE line the API
sends starts with (every one is a `data:` field, a comment or blank). This is the
harness's convention for handing a target either body, not a rule of the spec; the
reference target and the generic SSE suite's expectation both read it so.
"""

from __future__ import annotations

from collections.abc import Iterable

from refold.reference import JSON
from refold.reference.gemini import decode_array, decode_sse

__all__ = ["decode_body", "is_array_body"]

_BOM = b"\xef\xbb\xbf"
_JSON_WHITESPACE = b" \t\n\r"


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
