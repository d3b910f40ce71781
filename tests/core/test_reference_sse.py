"""The reference SSE decoder (refold.reference.sse): WHATWG framing and the chat layer."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.reference import RefoldError
from refold.reference.anthropic import decode_stream
from refold.reference.gemini import decode_array, decode_sse
from refold.reference.sse import (
    Chunk,
    ChunkStreamDecoder,
    Done,
    ErrorEvent,
    Event,
    EventStreamDecoder,
    InvalidData,
    SSEDataError,
    decode_chunks,
    decode_events,
    event_name,
)
from refold.strategies.wire import sse_bytes

_CHUNK = {"id": "chatcmpl-x", "choices": [{"index": 0, "delta": {"content": "h€llo 😀"}}]}


def _pieces(data: bytes, cuts: list[int]) -> list[bytes]:
    bounds = [0, *sorted(set(cuts)), len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


def test_events_carry_type_data_last_id_and_the_line_they_started_on() -> None:
    events = decode_events([b": hi\nid: 4\nevent: delta\ndata: a\ndata: b\n\ndata: c\n\n"])
    assert events == [Event("delta", "a\nb", "4", line=3), Event("message", "c", "4", line=7)]


def test_a_crlf_split_between_its_cr_and_lf_ends_one_line_not_two() -> None:
    assert decode_events([b"data: a\r", b"\n", b"\r", b"\ndata: b\r\n\r\n"]) == [
        Event("message", "a", line=1),
        Event("message", "b", line=3),
    ]


def test_a_lone_cr_at_the_end_of_a_piece_still_ends_the_line() -> None:
    decoder = EventStreamDecoder()
    assert decoder.feed(b"data: a\r\r") == [Event("message", "a", line=1)]
    assert decoder.feed(b"data: b\r") == []
    assert decoder.feed(b"\r") == [Event("message", "b", line=3)]


def test_a_multi_byte_character_split_across_pieces_decodes_whole() -> None:
    encoded = "data: €😀\n\n".encode()
    assert decode_events([encoded[:7], encoded[7:9], encoded[9:]]) == [
        Event("message", "€😀", line=1)
    ]


def test_one_leading_bom_is_ignored_even_when_split_but_a_second_is_kept() -> None:
    stream = b"\xef\xbb\xbf\xef\xbb\xbfdata: a\n\ndata: b\n\n"
    assert decode_events([stream[:1], stream[1:2], stream[2:]]) == [Event("message", "b", line=3)]


def test_an_unterminated_final_event_is_discarded_at_close() -> None:
    decoder = EventStreamDecoder()
    assert decoder.feed(b"data: a\n\ndata: b\n") == [Event("message", "a", line=1)]
    assert decoder.close() == []


def test_retry_keeps_the_last_all_digit_value_for_the_connection() -> None:
    decoder = EventStreamDecoder()
    decoder.feed(b"retry: 300\n\nretry: -5\nretry: 1e3\nretry:  7\ndata: a\n\n")
    assert decoder.retry == 300


def test_the_chat_layer_reads_chunks_done_error_events_and_invalid_data() -> None:
    decoder = ChunkStreamDecoder()
    items = decoder.feed(
        b'data: {"id": "c"}\n\nevent: error\ndata: {"error": {"message": "boom"}}\n\n'
        b"data: {not json\n\ndata: [DONE]\n\n"
    )
    assert items[0] == Chunk({"id": "c"}, line=1)
    assert items[1] == ErrorEvent({"error": {"message": "boom"}}, line=3)
    assert isinstance(items[2], InvalidData)
    assert (items[2].line, items[2].data) == (6, "{not json")
    assert items[3] == Done(line=8)


def test_an_error_chunk_in_a_message_event_is_still_a_chunk() -> None:
    chunk = {"error": {"code": "server_error"}, "choices": [{"index": 0, "finish_reason": "error"}]}
    assert decode_chunks([f"data: {json.dumps(chunk)}\n\n".encode()]) == [chunk]


def test_decode_chunks_names_the_line_of_data_that_is_not_json() -> None:
    expected = r"line 3: event data is not JSON .* received '\{\"id\"'"
    with pytest.raises(SSEDataError, match=expected):
        decode_chunks([b'data: {"id": "a"}\n\ndata: {"id"\n\n'])


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_data_holding_a_constant_python_reads_but_json_lacks_is_not_json(constant: str) -> None:
    # RFC 8259 has no NaN or Infinity; Python's json.loads reads them, no other parser does
    data = f'{{"id": "a", "v": {constant}}}'
    with pytest.raises(SSEDataError, match=f"{constant} is not JSON"):
        decode_chunks([f"data: {data}\n\n".encode()])
    with pytest.raises(RefoldError, match=f"{constant} is not JSON"):
        decode_stream([f"event: message_start\ndata: {data}\n\n".encode()])
    with pytest.raises(RefoldError, match=f"{constant} is not JSON"):
        decode_sse([f"data: {data}\n\n".encode()])
    with pytest.raises(RefoldError, match=f"{constant} is not JSON"):
        decode_array([f"[{data}]".encode()])


def test_decode_chunks_stops_at_done_and_reports_an_error_event() -> None:
    assert decode_chunks([b'data: {"a": 1}\n\ndata: [DONE]\n\ndata: {"b": 2}\n\n']) == [{"a": 1}]
    with pytest.raises(SSEDataError, match="line 1: the stream sent an error event"):
        decode_chunks([b"event: error\ndata: overloaded\n\n"])


@given(st.data())
def test_any_cut_of_a_stream_decodes_to_the_events_of_the_whole_stream(data: st.DataObject) -> None:
    stream = data.draw(
        st.sampled_from(
            [
                "\ufeffid: 1\r\ndata: a€\r\n\r\n: c\rdata:b\r\rdata\n\n",
                "event: e\ndata: 😀\u2028\n\nretry: 12\n\ndata: x",
            ]
        )
    ).encode()
    cuts = data.draw(st.lists(st.integers(1, len(stream) - 1), max_size=len(stream)))
    assert decode_events(_pieces(stream, cuts)) == decode_events([stream])


@given(sse_bytes([_CHUNK, {"choices": [], "usage": {"total_tokens": 3}}]))
def test_every_server_framing_decodes_back_to_the_chunks(parts: list[bytes]) -> None:
    assert all(parts), "sse_bytes drew an empty piece"
    assert decode_chunks(parts) == [_CHUNK, {"choices": [], "usage": {"total_tokens": 3}}]


@given(sse_bytes([_CHUNK], bom=True, done=True))
def test_a_bom_before_the_first_event_is_ignored(parts: list[bytes]) -> None:
    assert parts[0].startswith(b"\xef") and decode_chunks(parts) == [_CHUNK]


def test_an_event_field_after_data_keeps_the_line_of_the_events_first_field() -> None:
    from refold.reference.sse import decode_events

    (event,) = decode_events([b": keep-alive\ndata: a\nevent: custom\nevent: other\n\n"])
    assert (event.type, event.data, event.line) == ("other", "a", 2)


def test_a_bom_at_the_start_of_a_later_piece_is_kept() -> None:
    # Only the stream's first character may be a BOM; a piece boundary is not a start.
    decoder = EventStreamDecoder()
    assert decoder.feed(b"data: a\n\n") == [Event("message", "a", line=1)]
    assert decoder.feed(b"\xef\xbb\xbfdata: b\n\ndata: c\n\n") == [Event("message", "c", line=5)]


def test_a_leading_line_feed_is_a_blank_line_of_its_own() -> None:
    assert decode_events([b"\ndata: a\n\n"]) == [Event("message", "a", line=2)]


def test_a_closed_decoder_reads_the_next_connection_from_scratch_keeping_id_and_retry() -> None:
    decoder = EventStreamDecoder()
    assert decoder.feed(b"id: 7\nretry: 50\nevent: x\n\nevent: partial\ndata: cut\r") == []
    assert decoder.close() == []
    reconnected = decoder.feed(b"\xef\xbb\xbf\ndata: b\n\n")
    assert reconnected == [Event("message", "b", last_event_id="7", line=2)]
    assert decoder.retry == 50


def test_an_error_event_whose_data_is_not_json_carries_the_text() -> None:
    decoder = ChunkStreamDecoder()
    assert decoder.feed(b"event: error\ndata: overloaded\n\n") == [ErrorEvent("overloaded", 1)]
    assert decoder.close() == []


def test_invalid_data_says_why_the_json_decoder_refused_it() -> None:
    [item] = ChunkStreamDecoder().feed(b"\ndata: {1}\n\n")
    assert item == InvalidData(
        "{1}", 2, "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    )


def test_an_sse_data_error_names_the_item_its_line_and_the_data_received() -> None:
    item = InvalidData("x" * 80, 4, "Expecting value: line 1 column 1 (char 0)")
    error = SSEDataError(item)
    assert (error.item, error.line) == (item, 4)
    assert str(error) == (
        "line 4: event data is not JSON (Expecting value: line 1 column 1 (char 0)); expected "
        f"a chat.completion.chunk object or [DONE], received '{'x' * 80}'"
    )


def test_an_sse_data_error_shows_long_data_cut_to_eighty_characters() -> None:
    error = SSEDataError(InvalidData("y" * 81, 1, "r"))
    assert str(error).endswith(f"received '{'y' * 77}...'")


def test_an_sse_data_error_for_an_error_event_shows_the_error_as_json() -> None:
    error = SSEDataError(ErrorEvent({"code": 529, "message": "Overloaded"}, 6))
    assert (error.line, str(error)) == (
        6,
        'line 6: the stream sent an error event: \'{"code": 529, "message": "Overloaded"}\'',
    )


def test_only_cr_and_lf_end_a_line_whatever_other_characters_the_data_holds() -> None:
    printable = bytes(range(0x20, 0x7F))
    assert decode_events([b"data: " + printable + b"\n\n"]) == [
        Event("message", printable.decode("ascii"), line=1)
    ]


@pytest.mark.parametrize(
    ("item", "name"),
    [
        ({"type": "message_start"}, "message_start"),
        ({"type": " padded "}, " padded "),
        ({"type": ""}, None),
        ({"type": " \t"}, None),
        ({"type": "a\nb"}, None),
        ({"type": "a\rb"}, None),
        ({"type": 7}, None),
        ({}, None),
        ("[DONE]", None),
        (None, None),
    ],
)
def test_a_frame_is_named_by_its_type_only_when_the_type_can_be_an_event_name(
    item: object, name: str | None
) -> None:
    assert event_name(item) == name  # type: ignore[arg-type]
