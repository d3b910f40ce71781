"""Feature `sse`: what the Anthropic item layer decides beyond the generic item-layer SSE
properties (`test_sse_items.py`): a frame's data `type` wins over its `event:` name, and a
frame with empty data is skipped.

The decoder checked is the target's (`check.decoded`); its events must equal the
reference's (`refold.reference.anthropic.decode_stream`) for the same byte pieces, which
are the events the bytes were written from (`refold.strategies.anthropic.sse_bytes`:
named, unnamed or misnamed frames, comments, mixed line ends, JSON over several `data:`
lines, frames with no or empty data, cut at any byte).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule
from refold.strategies.anthropic import sse_bytes

from .._sse_items import decodes_like_the_reference, with_inserted
from ._kit import named, sse_events

_ODD_EVENTS: tuple[JSONObject, ...] = (
    {"message": {"id": "msg_typeless"}},  # no type: an unknown event, whatever its name
    {"type": "vertex_event", "usage": {"input_tokens": 9, "output_tokens": 9}},
    {"type": "", "index": 0},
    {"type": "ping"},
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
)


@rule("AM-SSE-TYPE")
@given(data=st.data())
def test_the_data_type_wins_over_the_event_name(check: Check, data: st.DataObject) -> None:
    claimed = check.target.features
    events = with_inserted(data, sse_events(claimed, data), _ODD_EVENTS)
    parts = data.draw(
        sse_bytes(events, event_lines=True, wrong_names=True, empty_frames=False), label="parts"
    )
    decodes_like_the_reference(check, parts)


@rule("AM-SSE-EMPTY")
@given(data=st.data())
def test_frames_with_empty_data_are_skipped(check: Check, data: st.DataObject) -> None:
    events = named(sse_events(check.target.features, data))
    parts = data.draw(
        sse_bytes(events, event_lines=True, empty_frames=True, empty_data=True), label="parts"
    )
    decodes_like_the_reference(check, parts)
