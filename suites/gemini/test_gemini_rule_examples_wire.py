"""Rule examples: the wire decoders (feature `sse`, GM-WIRE-SSE and GM-WIRE-ARRAY), through
`check.decoded`.

A target's decoder is handed the body of either framing and tells them apart by its
first byte (`refold.dialects.gemini.framing`): `[` or `{` is the JSON array (or the bare
error object of a failed request) sent without `alt=sse`, anything else SSE.
"""

from __future__ import annotations

import json

import pytest

from refold.reference import JSON
from refold.run.checks import Check
from refold.run.marks import rule

from ._chunks import text_stream

_CHUNKS: list[JSON] = list(text_stream("Hel", "lo"))


def _expect_decoded(check: Check, parts: list[bytes], expected: list[JSON]) -> None:
    if "sse" not in check.target.features:
        pytest.skip(
            f"target {check.target.name} does not claim feature sse, which this "
            f"example needs to send bytes to its decoder"
        )
    received = check.decoded(parts)
    found = check.item_differences(expected, received)
    if found:
        # pointers into the list of chunks, not into a response: no place rule owns them
        shown = "; ".join(str(d) for d in found[:3])
        raise check.fail(
            f"the decoder gave out other chunks than the body carries "
            f"({len(found)} difference(s): {shown})",
            events=expected,
            expected=expected,
            received=received,
        )


def _sse(chunks: list[JSON], line_end: bytes = b"\r\n") -> bytes:
    """Google's framing with `alt=sse`: `data: ` and a blank line, no event names; CR LF
    line ends as the Gemini API sends them (GMD-WIRE-CRLF, observed), or LF ones as the
    docs print them."""
    return b"".join(b"data: " + json.dumps(c).encode() + line_end * 2 for c in chunks)


def _array(chunks: list[JSON]) -> bytes:
    """Google's own framing without `alt=sse` (R1): `[{...}\\r\\n,\\r\\n{...}]`."""
    return ("[" + "\r\n,\r\n".join(json.dumps(c) for c in chunks) + "]").encode()


@rule("GM-WIRE-SSE")
def test_each_sse_event_is_one_chunk(check: Check) -> None:
    _expect_decoded(check, [_sse(_CHUNKS)], _CHUNKS)


@rule("GM-WIRE-SSE")
def test_each_sse_event_ended_by_lf_is_one_chunk(check: Check) -> None:
    _expect_decoded(check, [_sse(_CHUNKS, b"\n")], _CHUNKS)


@rule("GM-WIRE-SSE")
def test_sse_bytes_cut_anywhere_decode_to_the_same_chunks(check: Check) -> None:
    body = _sse(_CHUNKS)
    _expect_decoded(check, [body[:7], body[7:40], body[40:]], _CHUNKS)


@rule("GM-WIRE-SSE")
def test_an_sse_error_chunk_is_handed_to_the_fold(check: Check) -> None:
    error: JSON = {"error": {"code": 500, "message": "Internal error", "status": "INTERNAL"}}
    _expect_decoded(check, [_sse([_CHUNKS[0], error])], [_CHUNKS[0], error])


@rule("GM-WIRE-ARRAY")
def test_each_array_element_is_one_chunk(check: Check) -> None:
    _expect_decoded(check, [_array(_CHUNKS)], _CHUNKS)


@rule("GM-WIRE-ARRAY")
def test_array_bytes_cut_anywhere_decode_to_the_same_chunks(check: Check) -> None:
    body = _array(_CHUNKS)
    _expect_decoded(check, [body[:1], body[1:30], body[30:]], _CHUNKS)


@rule("GM-WIRE-ARRAY")
def test_a_bare_error_object_body_is_one_chunk(check: Check) -> None:
    # the body of a failed request: one JSON object, not an array
    error: JSON = {
        "error": {"code": 429, "message": "Quota exceeded", "status": "RESOURCE_EXHAUSTED"}
    }
    _expect_decoded(check, [json.dumps(error).encode()], [error])
