"""The wire strategies are lossless: `sse_bytes` decodes back to its chunks with the
dialect's `alt=sse` decoder, `array_bytes` with its JSON-array decoder, however the bytes
are cut."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from refold.reference.gemini import decode_array, decode_sse
from refold.strategies.gemini import array_bytes, round_trips, sse_bytes

_SLOW = settings(deadline=None)


@given(data=st.data())
@_SLOW
def test_sse_bytes_decode_back_to_the_chunks(data: st.DataObject) -> None:
    _, chunks = data.draw(round_trips())
    parts = data.draw(sse_bytes(chunks, bom=data.draw(st.booleans())))
    assert all(parts)
    assert decode_sse(parts) == chunks


@given(data=st.data())
@_SLOW
def test_array_bytes_decode_back_to_the_chunks(data: st.DataObject) -> None:
    _, chunks = data.draw(round_trips())
    parts = data.draw(array_bytes(chunks, empty_elements=data.draw(st.booleans())))
    assert all(parts)
    assert decode_array(parts) == chunks


@given(st.data())
@_SLOW
def test_googles_own_framing_has_no_keep_alive_and_no_done(data: st.DataObject) -> None:
    _, chunks = data.draw(round_trips(families={1}))
    parts = data.draw(
        sse_bytes(chunks, keep_alives=False, mixed_line_ends=False, multiline_data=False)
    )
    body = b"".join(parts)
    assert b"[DONE]" not in body
    assert not body.startswith(b":")
    assert decode_sse(parts) == chunks


@given(array_bytes([]))
def test_an_empty_stream_is_an_empty_array(parts: list[bytes]) -> None:
    assert decode_array(parts) == []
