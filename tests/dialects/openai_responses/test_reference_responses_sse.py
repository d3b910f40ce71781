"""The wire layer of the OpenAI Responses reference (feature `sse`): SSE bytes to events.

The spec states no wire rules of its own (Input: the `event:` name equals `type` and is
not needed; there is no `[DONE]`), so these are checks of the decoder's documented
behaviour on the shared WHATWG decoder.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from refold.reference import RefoldError
from refold.reference.responses import EventDataError, ResponseStreamDecoder, decode_stream, fold

EVENTS: list[dict[str, Any]] = [
    {
        "type": "response.created",
        "sequence_number": 0,
        "response": {"id": "resp_1", "status": "in_progress", "output": []},
    },
    {
        "type": "response.output_text.delta",
        "sequence_number": 1,
        "item_id": "m",
        "output_index": 0,
        "content_index": 0,
        "delta": "é😀",
    },
    {
        "type": "response.completed",
        "sequence_number": 2,
        "response": {"id": "resp_1", "status": "completed", "output": []},
    },
]


def wire(events: list[dict[str, Any]], *, names: bool = True) -> bytes:
    frames = [
        (f"event: {e['type']}\n" if names else "") + f"data: {json.dumps(e)}\n\n" for e in events
    ]
    return "".join(frames).encode()


def test_each_frame_decodes_to_its_data_object_with_or_without_event_names() -> None:
    assert decode_stream([wire(EVENTS)]) == EVENTS
    assert decode_stream([wire(EVENTS, names=False)]) == EVENTS
    # the data's type decides; an event: name that differs is not consulted
    misnamed = b'event: response.completed\ndata: {"type": "keepalive"}\n\n'
    assert decode_stream([misnamed]) == [{"type": "keepalive"}]


def test_bytes_split_anywhere_decode_the_same() -> None:
    data = wire(EVENTS)
    pieces = [data[i : i + 1] for i in range(len(data))]
    assert decode_stream(pieces) == EVENTS
    assert fold(decode_stream(pieces))["output"][0]["content"][0]["text"] == "é😀"


def test_empty_data_and_a_done_sentinel_are_no_events_and_keepalive_is_passed_on() -> None:
    # [decision] there is no [DONE] in this dialect; a gateway's one is skipped, not refused
    data = (
        b"event: keepalive\n\n: comment\n\ndata:\n\ndata: [DONE]\n\n"
        b'event: keepalive\ndata: {"type": "keepalive"}\n\n'
    )
    assert decode_stream([data]) == [{"type": "keepalive"}]


def test_data_that_is_not_json_is_an_error_naming_its_line() -> None:
    decoder = ResponseStreamDecoder()
    assert decoder.feed(wire(EVENTS[:1])) == EVENTS[:1]
    with pytest.raises(EventDataError) as caught:
        decoder.feed(b"event: response.in_progress\ndata: {not json\n\n")
    assert isinstance(caught.value, RefoldError) and caught.value.line == 4
    assert caught.value.data == "{not json"
    assert "(Expecting property name" in str(caught.value)
    assert str(caught.value).endswith("event object, received '{not json'")
    # only JSON's whitespace is none: a no-break space is data, and not JSON
    with pytest.raises(EventDataError):
        decode_stream(["data: \u00a0\n\n".encode()])


def test_an_unterminated_final_frame_is_discarded() -> None:
    decoder = ResponseStreamDecoder()
    assert decoder.feed(wire(EVENTS[:1]) + b'data: {"type": "x"}\n') == EVENTS[:1]
    assert decoder.close() == []
