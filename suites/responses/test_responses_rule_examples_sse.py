"""Rule examples: the wire decoder (feature `sse`), through `check.decoded`.

responses-fold.md has no wire rule of its own: its input is "events in arrival order,
each a JSON object as decoded from one SSE `data:` line (the SSE `event:` name, when
present, equals `type` and is not needed)". So a decoder is held to the rules that say
what the fold does with what it hands on: every event, in arrival order, whatever the
frame's name (RS-SEQ-ARRIVAL); `keepalive` and unknown events handed on (RS-KEEPALIVE);
`error` events handed on (RS-ERROR-EVENT); data that is not a JSON object refused
(RS-NOT-OBJECT). A target that does not claim `sse` skips these (no rule of the dialect
is the feature's).
"""

from __future__ import annotations

import pytest

from refold.reference import JSON, JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from .._expect import expect_decoded, needs
from .._sse_items import refuses_data_that_is_not_json
from ._events import error_event, frame, keepalive, message, response, text_part, text_stream
from ._expect import expect_response


def _needs_sse(check: Check) -> None:
    needs(check, "sse", "send bytes to its decoder")


def _named(events: list[JSONObject]) -> list[bytes]:
    """Each event in its own frame, named by its type, as OpenAI sends them."""
    return [frame(event, event=str(event["type"])) for event in events]


def _expect_decoded(check: Check, parts: list[bytes], expected: list[JSON]) -> None:
    _needs_sse(check)
    expect_decoded(check, parts, expected)


@rule("RS-SEQ-ARRIVAL")
def test_openais_own_stream_decodes_into_its_events(check: Check) -> None:
    events = text_stream("Hello", "!")
    _expect_decoded(check, _named(events), list(events))


@rule("RS-SEQ-ARRIVAL")
def test_frames_without_an_event_line_decode_like_any_other(check: Check) -> None:
    # the `event:` name "is not needed": gateways send data-only frames
    events = text_stream("Hi")
    _expect_decoded(check, [frame(event) for event in events], list(events))


@rule("RS-SEQ-ARRIVAL")
def test_the_data_type_wins_when_the_event_name_disagrees(check: Check) -> None:
    events = text_stream("Hi")
    names = [
        "message",
        "response.completed",
        "error",
        "keepalive",
        "x",
        "response.created",
        "response.output_text.done",
        "message",
        "response.failed",
    ]
    parts = [frame(event, event=name) for event, name in zip(events, names, strict=True)]
    _expect_decoded(check, parts, list(events))


@rule("RS-SEQ-ARRIVAL")
def test_a_stream_split_at_every_byte_decodes_the_same(check: Check) -> None:
    # the pieces cut lines, JSON and multi-byte UTF-8 characters anywhere
    events = text_stream("caf\u00e9 ", "\U0001f600", " ok")
    wire = b"".join(_named(events))
    assert len(wire) > len(wire.decode())  # the pieces do cut multi-byte characters
    _expect_decoded(check, [wire[i : i + 1] for i in range(len(wire))], list(events))


@rule("RS-SEQ-ARRIVAL")
def test_events_with_sequence_numbers_out_of_order_are_handed_on_in_arrival_order(
    check: Check,
) -> None:
    # RQ12: the decoder reorders nothing either
    events = [
        {**event, "sequence_number": number}
        for event, number in zip(text_stream("a", "b"), [3, 1, 2, 0, 9, 5, 4, 8, 6, 7], strict=True)
    ]
    _expect_decoded(check, _named(events), list(events))


@rule("RS-KEEPALIVE")
def test_keepalive_and_unknown_events_are_handed_to_the_fold(check: Check) -> None:
    # RQ24: openai-node's decoder-side sanitizer throws on unknown types
    events = text_stream("Hi")
    events[2:2] = [keepalive(), {"type": "response.x_future", "n": 1}]
    events.append(keepalive())
    _expect_decoded(check, _named(events), list(events))


@rule("RS-KEEPALIVE")
def test_comment_frames_decode_to_no_event(check: Check) -> None:
    events = text_stream("Hi")
    parts = [b": keep-alive\n\n", *_named(events[:3]), b":\n\n", *_named(events[3:])]
    _expect_decoded(check, parts, list(events))


@rule("RS-ERROR-EVENT")
def test_error_frames_are_handed_to_the_fold(check: Check) -> None:
    # RQ18: openai-python's SSE layer raises on a data object with a truthy `error` key
    nested: JSONObject = {"type": "error", "error": {"type": "server_error", "message": "x"}}
    events = text_stream("Hi")
    events[3:3] = [error_event(), nested]
    _expect_decoded(check, _named(events), list(events))


@rule("RS-ERROR-EVENT")
def test_a_decoded_stream_with_an_error_frame_folds_to_its_terminal_response(check: Check) -> None:
    _needs_sse(check)
    events = text_stream("Hi")
    events[3:3] = [error_event()]
    decoded = check.decoded(_named(events))
    received = check.fold(decoded)
    expect_response(
        check,
        received,
        response(message(text_part("Hi"))),
        events=decoded,
        when="the fold of the decoded events",
    )


_NOT_JSON = [
    # a frame cut short by a proxy, a Python repr instead of JSON, plain text
    '{"type": "response.output_text.delta", "output_index": 0, "delta": "H',
    "{'type': 'keepalive'}",
    "Hi",
]


@rule("RS-NOT-OBJECT")
@pytest.mark.parametrize("data", _NOT_JSON)
def test_a_frame_whose_data_is_not_json_is_refused(check: Check, data: str) -> None:
    # data that is not JSON is no event object: refused by the decoder, or handed on and
    # refused by the fold
    _needs_sse(check)
    events = text_stream("Hi")
    parts = [
        *_named(events[:3]),
        frame(data, event="response.output_text.delta"),
        *_named(events[3:]),
    ]
    refuses_data_that_is_not_json(check, parts, data)
