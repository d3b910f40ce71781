"""The Gemini wire layer: `alt=sse` events and the JSON-array body, bytes in, chunks out.

Worked examples of the spec's Wire decoding section (GM-WIRE-SSE, GM-WIRE-ARRAY).
"""

from __future__ import annotations

import json

import pytest

from refold.reference.gemini import (
    ArrayStreamDecoder,
    ChunkDataError,
    SSEStreamDecoder,
    decode_array,
    decode_sse,
)

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_each_sse_event_data_is_one_chunk_and_names_are_ignored": ("GM-WIRE-SSE",),
    "test_sse_events_without_data_are_skipped": ("GM-WIRE-SSE",),
    "test_sse_data_that_is_not_json_names_the_chunk": ("GM-WIRE-SSE",),
    "test_sse_bytes_may_be_split_anywhere": ("GM-WIRE-SSE",),
    "test_each_array_element_is_one_chunk_handed_out_once_complete": ("GM-WIRE-ARRAY",),
    "test_array_bytes_may_be_split_anywhere": ("GM-WIRE-ARRAY",),
    "test_a_bare_object_body_is_one_chunk": ("GM-WIRE-ARRAY", "GM-LIFE-ERROR"),
    "test_scalar_elements_are_handed_to_the_fold": ("GM-WIRE-ARRAY", "GM-ROB-NOT-OBJECT"),
    "test_an_unfinished_element_is_discarded_at_close": ("GM-WIRE-ARRAY", "GM-LIFE-TRUNCATED"),
    "test_a_body_that_is_no_array_is_refused_naming_where": ("GM-WIRE-ARRAY",),
    "test_an_element_that_is_not_json_names_its_pointer": ("GM-WIRE-ARRAY",),
    "test_strings_escapes_and_bad_utf8_are_read_as_json_reads_them": ("GM-WIRE-ARRAY",),
}

FIRST = {"candidates": [{"content": {"role": "model", "parts": [{"text": 'a "}]{[ \\ b'}]}}]}
SECOND = {"candidates": [{"finishReason": "STOP", "index": 0}], "usageMetadata": {"x": [1, 2]}}


def sse(*chunks: object) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\r\n\r\n" for c in chunks)


def test_each_sse_event_data_is_one_chunk_and_names_are_ignored() -> None:
    body = sse(FIRST) + b"event: error\ndata: " + json.dumps(SECOND).encode() + b"\n\n"
    assert decode_sse([body]) == [FIRST, SECOND]


def test_sse_events_without_data_are_skipped() -> None:
    body = b": keep-alive\n\nevent: x\n\ndata: \n\n" + sse(FIRST) + b"data: {}"
    assert decode_sse([body]) == [FIRST]  # the unterminated last event is discarded


def test_sse_data_that_is_not_json_names_the_chunk() -> None:
    decoder = SSEStreamDecoder()
    assert decoder.feed(sse(FIRST, SECOND)) == [FIRST, SECOND]
    with pytest.raises(ChunkDataError, match=r"chunk 2 \(pointer ''\) is not JSON") as caught:
        decoder.feed(b"data: [DONE]\n\n")
    assert (caught.value.chunk_number, caught.value.pointer) == (2, "")
    assert caught.value.data == "[DONE]"
    assert "(Expecting value: line 1 column 2 (char 1))" in str(caught.value)
    assert "received '[DONE]'" in str(caught.value)
    with pytest.raises(ChunkDataError, match="chunk 0"):
        decode_sse([b"data: \x0c\n\n"])  # not JSON whitespace: not an empty frame


def test_sse_bytes_may_be_split_anywhere() -> None:
    body = sse(FIRST, SECOND)
    for cut in range(len(body) + 1):
        assert decode_sse([body[:cut], body[cut:]]) == [FIRST, SECOND]


ARRAY = ("[" + json.dumps(FIRST) + "\r\n,\r\n" + json.dumps(SECOND) + "]").encode()


def test_each_array_element_is_one_chunk_handed_out_once_complete() -> None:
    decoder = ArrayStreamDecoder()
    first_end = ARRAY.index(b"\r\n,")
    assert decoder.feed(ARRAY[: first_end - 1]) == []
    assert decoder.feed(ARRAY[first_end - 1 : first_end]) == [FIRST]
    assert decoder.feed(ARRAY[first_end:]) == [SECOND]
    assert decoder.close() == []
    assert decode_array([b"\xef\xbb\xbf \n[ ]\n"]) == []


def test_array_bytes_may_be_split_anywhere() -> None:
    body = ARRAY.replace(b"a ", "é ".encode())
    expected = json.loads(body)
    for cut in range(len(body) + 1):
        assert decode_array([body[:cut], body[cut:]]) == expected


def test_a_bare_object_body_is_one_chunk() -> None:
    error = {"error": {"code": 400, "message": "bad [request]", "status": "INVALID_ARGUMENT"}}
    assert decode_array([json.dumps(error, indent=2).encode(), b"\n"]) == [error]


def test_scalar_elements_are_handed_to_the_fold() -> None:
    assert decode_array([b'[1 , "x,]" ,null,[2,{}], {} ]']) == [1, "x,]", None, [2, {}], {}]


def test_an_unfinished_element_is_discarded_at_close() -> None:
    decoder = ArrayStreamDecoder()
    assert decoder.feed(ARRAY[:-10]) == [FIRST]
    assert decoder.close() == []
    cut_inside_a_character = '[{"text": "é'.encode()[:-1]
    assert decode_array([cut_inside_a_character]) == []


@pytest.mark.parametrize(
    ("body", "where", "chunks"),
    [
        (b"data: {}", "'d' before the body", 0),
        (b"[{}, {}] x", "'x' after the body", 2),
        (b"{} {}", "'{' after the body", 1),
        (b"[{}}]", "unbalanced '}'", 1),
    ],
)
def test_a_body_that_is_no_array_is_refused_naming_where(
    body: bytes, where: str, chunks: int
) -> None:
    with pytest.raises(ChunkDataError, match=where) as caught:
        decode_array([body])
    assert caught.value.pointer == ""
    assert caught.value.data == where.split("'")[1]
    assert caught.value.chunk_number == chunks


def test_an_element_that_is_not_json_names_its_pointer() -> None:
    with pytest.raises(ChunkDataError, match=r"chunk 2 \(pointer '/2'\)") as caught:
        decode_array([b'[{}, {}, {"a": tru}]'])
    assert (caught.value.chunk_number, caught.value.pointer) == (2, "/2")
    assert caught.value.data == '{"a": tru}'
    with pytest.raises(ChunkDataError, match=r"chunk 0 \(pointer '/0'\)"):
        decode_array([b"[X]"])
    with pytest.raises(ChunkDataError, match=r"chunk 0 \(pointer ''\)"):
        decode_array([b'{"a": nul}'])


def test_strings_escapes_and_bad_utf8_are_read_as_json_reads_them() -> None:
    body = b'[{"": "\\\\"}, {"q": "\\"]}\\\\", "b": "\xff"}]'
    assert decode_array([body]) == [{"": "\\"}, {"q": '"]}\\', "b": "\ufffd"}]
    decoder = ArrayStreamDecoder()
    assert decoder.feed(b"[{}]\xc3") == [{}]
    with pytest.raises(ChunkDataError, match="after the body"):
        decoder.close()  # an unfinished UTF-8 sequence after the body is U+FFFD
