"""Feature `sse`: the target's own decoder of Anthropic `text/event-stream` bytes hands the
fold every event's data, whatever the framing, the `event:` names and the cuts.

The decoder checked is the target's (`check.decoded`); its events must equal the
reference's (`refold.reference.anthropic.decode_stream`) for the same byte pieces, which
are the events the bytes were written from. The bytes come from
`refold.strategies.anthropic.sse_bytes`: frames named by their `type` (as Anthropic sends
them), unnamed (as Anthropic-compatible proxies send them) or misnamed, with comments,
mixed line ends, JSON over several `data:` lines, frames with no or empty data, and cut at
any byte (inside a UTF-8 character and between CR and LF included).
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject, json_equal
from refold.reference.anthropic import decode_stream
from refold.run.checks import Check
from refold.run.marks import rule
from refold.strategies.anthropic import (
    event_name,
    event_streams,
    lifecycle_events,
    round_trips,
    sse_bytes,
)

_ODD_EVENTS: tuple[JSONObject, ...] = (
    {"message": {"id": "msg_typeless"}},  # no type: an unknown event, whatever its name
    {"type": "vertex_event", "usage": {"input_tokens": 9, "output_tokens": 9}},
    {"type": "", "index": 0},
    {"type": "ping"},
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
)
_PASSED_THROUGH: tuple[JSONObject, ...] = (
    {"type": "ping"},
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    {"type": "error", "error": {"type": "api_error", "message": "x"}, "request_id": "req_1"},
    {"type": "error"},
)
"""Frames a decoder may be tempted to filter or raise on; AM-SSE-EMPTY hands them on."""


def _events(check: Check, data: st.DataObject) -> list[JSON]:
    """A short run of single events of every type, a lossless stream (whose text needs
    every UTF-8 length) or a damaged one."""
    claimed = check.target.features
    streams = st.one_of(
        st.lists(lifecycle_events(features=claimed), min_size=1, max_size=6),
        round_trips(features=claimed).map(lambda case: case[1]),
        event_streams(features=claimed),
    )
    events: list[JSON] = list(data.draw(streams, label="events"))
    return events


def _with(data: st.DataObject, events: list[JSON], extra: tuple[JSONObject, ...]) -> list[JSON]:
    """`events` with one to three of `extra` inserted anywhere (first and last included)."""
    changed = list(events)
    for item in data.draw(
        st.lists(st.sampled_from(extra), min_size=1, max_size=3), label="inserted"
    ):
        changed.insert(data.draw(st.integers(0, len(changed))), copy.deepcopy(item))
    return changed


def _decodes_like_the_reference(check: Check, parts: list[bytes]) -> None:
    __tracebackhide__ = True
    expected = decode_stream(parts)
    received = check.decoded(parts)
    if not json_equal(expected, received):
        note(f"cut into {parts!r}")
        raise check.fail(
            f"the target's decoder gave {len(received)} event(s) for {len(parts)} byte "
            f"piece(s), the reference's decoder {len(expected)} (the pieces: see the note)",
            events=expected,
            expected=expected,
            received=received,
        )


@rule("AM-SSE-TYPE")
@pytest.mark.parametrize("event_lines", [True, False, None], ids=["named", "unnamed", "mixed"])
@given(data=st.data())
def test_frames_decode_to_their_data_with_or_without_event_lines(
    check: Check, event_lines: bool | None, data: st.DataObject
) -> None:
    events = _events(check, data)
    parts = data.draw(sse_bytes(events, event_lines=event_lines, empty_frames=False), label="parts")
    _decodes_like_the_reference(check, parts)


@rule("AM-SSE-TYPE")
@given(data=st.data())
def test_the_data_type_wins_over_the_event_name(check: Check, data: st.DataObject) -> None:
    events = _with(data, _events(check, data), _ODD_EVENTS)
    parts = data.draw(
        sse_bytes(events, event_lines=True, wrong_names=True, empty_frames=False), label="parts"
    )
    _decodes_like_the_reference(check, parts)


def _named(events: list[JSON]) -> list[JSON]:
    """The events a frame can be named after (a `type` that is a non-blank string): the
    AM-SSE-EMPTY properties send Anthropic's own named frames, since a frame without an
    `event:` line is AM-SSE-TYPE's departure, not theirs."""
    return [event for event in events if event_name(event) is not None]


@rule("AM-SSE-EMPTY")
@given(data=st.data())
def test_frames_with_empty_data_are_skipped(check: Check, data: st.DataObject) -> None:
    events = _named(_events(check, data))
    parts = data.draw(
        sse_bytes(events, event_lines=True, empty_frames=True, empty_data=True), label="parts"
    )
    _decodes_like_the_reference(check, parts)


@rule("AM-SSE-EMPTY")
@given(data=st.data())
def test_ping_and_error_frames_are_passed_to_the_fold(check: Check, data: st.DataObject) -> None:
    events = _named(_with(data, _events(check, data), _PASSED_THROUGH))
    parts = data.draw(sse_bytes(events, event_lines=True), label="parts")
    _decodes_like_the_reference(check, parts)
