"""`sse_bytes` for Anthropic streams is lossless: the WHATWG decoder of
`refold.reference.sse` gives back every event, named by its type or not, however the
bytes are cut; so does the dialect's own wire layer."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import find, given, settings
from hypothesis import strategies as st

from refold.reference.anthropic import decode_stream
from refold.reference.sse import decode_events
from refold.strategies.anthropic import event_name, event_streams, round_trips, sse_bytes

_SLOW = settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
_streams = st.one_of(round_trips().map(lambda case: case[1]), event_streams())


@given(data=st.data(), events=_streams)
@_SLOW
def test_sse_bytes_decode_back_to_the_events_with_event_lines(
    data: st.DataObject, events: list[Any]
) -> None:
    parts = data.draw(sse_bytes(events, event_lines=True))
    decoded = decode_events(parts)
    assert [json.loads(e.data) for e in decoded] == events
    assert [e.type for e in decoded] == [event_name(item) or "message" for item in events]


@given(data=st.data(), events=_streams)
@_SLOW
def test_sse_bytes_decode_back_to_the_events_without_event_lines(
    data: st.DataObject, events: list[Any]
) -> None:
    parts = data.draw(sse_bytes(events, event_lines=False))
    decoded = decode_events(parts)
    assert [json.loads(e.data) for e in decoded] == events
    assert {e.type for e in decoded} <= {"message"}


@given(data=st.data(), events=_streams)
@_SLOW
def test_sse_bytes_with_drawn_event_lines_decode_on_the_dialects_wire_layer(
    data: st.DataObject, events: list[Any]
) -> None:
    assert decode_stream(data.draw(sse_bytes(events))) == events


@given(data=st.data())
@_SLOW
def test_sse_bytes_are_cut_into_non_empty_pieces_that_join_to_one_stream(
    data: st.DataObject,
) -> None:
    events = [
        {"type": "ping"},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": "\u00e9\U0001f600"},
        },
    ]
    parts = data.draw(sse_bytes(events))
    assert all(parts)
    assert b"".join(parts).decode("utf-8").count("data:") >= len(events)


@given(data=st.data(), events=_streams)
@_SLOW
def test_sse_bytes_with_wrong_event_names_decode_on_the_dialects_wire_layer(
    data: st.DataObject, events: list[Any]
) -> None:
    parts = data.draw(sse_bytes(events, event_lines=True, wrong_names=True))
    assert [json.loads(e.data) for e in decode_events(parts)] == events
    assert decode_stream(parts) == events


@given(data=st.data(), events=_streams)
@_SLOW
def test_sse_bytes_with_empty_data_frames_decode_on_the_dialects_wire_layer(
    data: st.DataObject, events: list[Any]
) -> None:
    parts = data.draw(sse_bytes(events, empty_data=True))
    decoded = decode_events(parts)
    assert [json.loads(e.data) for e in decoded if e.data] == events
    assert all(e.data or e.type in _EMPTY_DATA_NAMES for e in decoded)
    assert decode_stream(parts) == events


_EMPTY_DATA_NAMES = {"message", "ping", "content_block_delta", "error"}


def test_sse_bytes_with_empty_data_draw_frames_that_whatwg_dispatches() -> None:
    parts = find(
        sse_bytes([{"type": "ping"}], empty_data=True),
        lambda parts: any(not e.data for e in decode_events(parts)),
        settings=settings(database=None, deadline=None),
    )
    assert decode_stream(parts) == [{"type": "ping"}]


def test_sse_bytes_without_empty_data_never_dispatch_an_empty_event() -> None:
    @given(parts=sse_bytes([{"type": "ping"}, {"type": "message_stop"}]))
    @_SLOW
    def check(parts: list[bytes]) -> None:
        assert all(e.data for e in decode_events(parts))

    check()
