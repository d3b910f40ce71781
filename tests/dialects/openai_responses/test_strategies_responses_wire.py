"""`sse_bytes` for Responses streams is lossless: the WHATWG decoder of
`refold.reference.sse` gives back every event, its `event:` name equal to its `type`,
however the bytes are cut; so does the dialect's own wire layer. There is no `[DONE]`."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from refold.reference.responses import decode_stream
from refold.reference.sse import decode_events
from refold.strategies.responses import event_name, event_streams, round_trips, sse_bytes

_SLOW = settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
_streams = st.one_of(round_trips().map(lambda case: case[1]), event_streams())


@given(data=st.data(), events=_streams)
@_SLOW
def test_sse_bytes_decode_back_to_the_events_each_named_by_its_type(
    data: st.DataObject, events: list[Any]
) -> None:
    parts = data.draw(sse_bytes(events))
    decoded = decode_events(parts)
    assert [json.loads(e.data) for e in decoded] == events
    assert [e.type for e in decoded] == [event_name(item) or "message" for item in events]


@given(data=st.data(), events=_streams)
@_SLOW
def test_sse_bytes_without_event_lines_decode_back_to_the_events(
    data: st.DataObject, events: list[Any]
) -> None:
    parts = data.draw(sse_bytes(events, event_lines=False))
    decoded = decode_events(parts)
    assert [json.loads(e.data) for e in decoded] == events
    assert {e.type for e in decoded} <= {"message"}


@given(data=st.data(), events=_streams)
@_SLOW
def test_sse_bytes_decode_on_the_dialects_wire_layer(
    data: st.DataObject, events: list[Any]
) -> None:
    assert decode_stream(data.draw(sse_bytes(events, event_lines=None))) == events


@given(data=st.data())
@_SLOW
def test_sse_bytes_are_non_empty_pieces_of_one_stream_without_done(
    data: st.DataObject,
) -> None:
    events = [
        {"type": "keepalive"},
        {
            "type": "response.output_text.delta",
            "output_index": 0,
            "content_index": 0,
            "delta": "\u00e9\U0001f600",
        },
    ]
    parts = data.draw(sse_bytes(events))
    assert all(parts)
    text = b"".join(parts).decode("utf-8")
    assert text.count("data:") >= len(events)
    assert "[DONE]" not in text
    assert "event: response.output_text.delta" in text


def test_event_name_is_the_type_when_it_can_be_one() -> None:
    assert event_name({"type": "response.completed"}) == "response.completed"
    unnamed: list[Any] = [{"type": 7}, {"type": " "}, {"type": "a\nb"}, []]
    assert [event_name(value) for value in unnamed] == [None, None, None, None]
