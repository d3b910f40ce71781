"""Rule examples: the wire decoder (AM-SSE-TYPE, AM-SSE-EMPTY), through `check.decoded`.

The decoder hands the fold each frame's data as a JSON value; the SSE `event:` name is
never what decides the fold type, and ping, error and unknown events reach the fold. A
frame whose data is not JSON carries no event object, so it is refused (AM-ROB-NOT-OBJECT),
by the decoder or by the fold it hands the data to.
"""

from __future__ import annotations

import pytest

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from .._expect import expect_decoded, needs
from .._sse_items import refuses_data_that_is_not_json
from ._events import (
    error,
    frame,
    message,
    ping,
    text,
    text_delta,
    text_stream,
)
from ._expect import expect_message


def _named(events: list[JSONObject]) -> list[bytes]:
    """Each event in its own frame, named by its type, as Anthropic sends them."""
    return [frame(event, event=str(event["type"])) for event in events]


@rule("AM-SSE-TYPE")
def test_the_docs_basic_stream_decodes_into_its_events(check: Check) -> None:
    events = text_stream("Hello", "!")
    expect_decoded(check, _named(events), events)


@rule("AM-SSE-TYPE")
def test_frames_without_an_event_line_are_decoded_like_any_other(check: Check) -> None:
    # AQ30: proxies send data-only frames; both official SDKs then drop every event
    events = text_stream("Hello", "!")
    expect_decoded(check, [frame(event) for event in events], events)


@rule("AM-SSE-TYPE")
def test_frames_named_message_are_decoded_like_any_other(check: Check) -> None:
    # `message` is the WHATWG default name, here written out
    events = text_stream("Hi")
    expect_decoded(check, [frame(event, event="message") for event in events], events)


@rule("AM-SSE-TYPE")
def test_the_data_type_wins_when_the_event_name_disagrees(check: Check) -> None:
    events = text_stream("Hi", "!")
    names = [
        "message",
        "ping",
        "error",
        "content_block_stop",
        "message_stop",
        "vertex_event",
        "message_start",
    ]
    parts = [frame(event, event=name) for event, name in zip(events, names, strict=True)]
    expect_decoded(check, parts, events)


@rule("AM-SSE-TYPE")
def test_data_without_a_type_is_an_unknown_event_whatever_the_name_says(check: Check) -> None:
    # a decoder that fills `type` in from the event name would fold "X" into the text
    events = text_stream("Hi", "!")
    typeless = {"index": 0, "delta": {"type": "text_delta", "text": "X"}}
    parts = [*_named(events[:3]), frame(typeless, event="content_block_delta"), *_named(events[3:])]
    decoded = check.decoded(parts)
    received = check.fold(decoded)
    expect_message(
        check,
        received,
        message(text("Hi!"), stop_reason="end_turn"),
        events=decoded,
        when="the fold of the decoded events",
    )


@rule("AM-SSE-TYPE")
def test_a_data_only_stream_split_at_every_byte_decodes_the_same(check: Check) -> None:
    # the byte pieces cut lines, JSON and multi-byte UTF-8 characters anywhere
    events = text_stream("caf\u00e9 ", "\U0001f600", " ok")
    wire = b"".join(frame(event) for event in events)
    assert len(wire) > len(wire.decode())  # the pieces do cut multi-byte characters
    expect_decoded(check, [wire[i : i + 1] for i in range(len(wire))], events)


@rule("AM-SSE-EMPTY")
def test_a_frame_with_empty_data_is_skipped(check: Check) -> None:
    # AQ30: proxies flush `event:` lines without data; JSON-parsing them crashed
    events = text_stream("Hi", "!")
    empty = [
        b"event: content_block_delta\ndata: \n\n",
        b"event: message_start\ndata:\n\n",
        b"event: ping\n\n",
    ]
    parts = [part for event in _named(events) for part in (*empty, event)]
    expect_decoded(check, parts, events)


@rule("AM-SSE-EMPTY")
def test_ping_and_error_frames_are_passed_to_the_fold(check: Check) -> None:
    # the Python SDK's decoder skips ping frames and raises on error frames
    events = [ping(), *text_stream("Hi")[:3], ping(), text_delta(0, "!"), error()]
    expect_decoded(check, _named(events), events)


@rule("AM-SSE-EMPTY")
def test_an_error_frame_with_request_id_is_passed_as_sent(check: Check) -> None:
    # karthink/gptel#1512: the captured payload, `details: null` and `request_id` included
    event = {
        "type": "error",
        "request_id": "req_011CU",
        "error": {"type": "overloaded_error", "message": "Overloaded", "details": None},
    }
    expect_decoded(check, [frame(event, event="error")], [event])


_NOT_JSON = [
    # a frame cut short by a proxy, a Python repr instead of JSON, plain text
    '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta"',
    "{'type': 'ping'}",
    "Hi",
]


@rule("AM-ROB-NOT-OBJECT")
@pytest.mark.parametrize("data", _NOT_JSON)
def test_a_frame_whose_data_is_not_json_is_refused(check: Check, data: str) -> None:
    # AM-SSE-EMPTY skips only empty data: data that is there but not JSON is no event
    # object, and neither skipping it nor turning it into an event is refusing it
    needs(check, "sse", "send the frames to its decoder")
    events = text_stream("Hi", "!")
    parts = [*_named(events[:3]), frame(data, event="content_block_delta"), *_named(events[3:])]
    refuses_data_that_is_not_json(check, parts, data)
