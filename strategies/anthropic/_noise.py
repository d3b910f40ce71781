"""Split family 8: events and keys that must not change the fold.

Each kind of noise sits behind its own branch, so a failing example shrinks to the one
kind that matters: `ping` anywhere (first included, AM-PING), unknown event types
anywhere (AM-UNKNOWN-EVENT; Vertex's `vertex_event` duplicates usage), unknown keys on
event envelopes (AM-UNKNOWN-KEYS; Bedrock's metrics on message_stop), and events after
`message_stop` (AM-LIFE-AFTER-STOP).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from hypothesis import event
from hypothesis import strategies as st

from refold.reference import JSONObject

from .._text import BOOLEANS, below

__all__ = ["UNKNOWN_EVENTS", "with_noise"]

UNKNOWN_EVENTS: tuple[JSONObject, ...] = (
    {"type": "vertex_event", "usage": {"input_tokens": 99, "output_tokens": 99}},
    {"type": "x_future_event", "index": 0, "delta": {"type": "text_delta", "text": "x"}},
    {"type": "", "message": {"id": "msg_other"}},
    {"message": {"id": "msg_typeless"}},
)
"""Events whose type the fold does not know (or blank): each looks like it means something."""

_UNKNOWN = st.sampled_from(UNKNOWN_EVENTS)
_BEDROCK_METRICS = {
    "amazon-bedrock-invocationMetrics": {
        "inputTokenCount": 99,
        "outputTokenCount": 99,
        "invocationLatency": 120,
        "firstByteLatency": 40,
    }
}
_ENVELOPE_KEYS = st.sampled_from(["request_id", "x_trace", "amazon-bedrock-invocationMetrics"])
_LATE_EVENTS: tuple[JSONObject, ...] = (
    {
        "type": "message_delta",
        "delta": {"stop_reason": "max_tokens", "stop_sequence": None},
        "usage": {"output_tokens": 99},
    },
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "late"}},
    {"type": "content_block_start", "index": 99, "content_block": {"type": "text", "text": "x"}},
    {
        "type": "message_start",
        "message": {
            "id": "msg_late",
            "type": "message",
            "role": "assistant",
            "model": "claude-late",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 99, "output_tokens": 1},
        },
    },
    {"type": "message_stop"},
)
"""Events after message_stop, each one that would change the message if folded in, and
each as the SDK's types write it (their one departure is arriving late)."""


def with_noise(draw: st.DrawFn, events: list[JSONObject], *, late_events: bool) -> list[JSONObject]:
    """The events with family-8 noise added; the fold is unchanged."""
    events = copy.deepcopy(events)
    if draw(BOOLEANS):
        event("noise: pings")
        events = _inserted(draw, events, lambda: {"type": "ping"})
    if draw(BOOLEANS):
        event("noise: unknown events")
        events = _inserted(draw, events, lambda: copy.deepcopy(draw(_UNKNOWN)))
    if draw(BOOLEANS):
        event("noise: envelope keys")
        _add_envelope_keys(draw, events)
    if late_events and draw(BOOLEANS):
        event("noise: events after message_stop")
        late = draw(st.lists(st.sampled_from(_LATE_EVENTS), min_size=1, max_size=3))
        events += copy.deepcopy(late)
    return events


def _inserted(
    draw: st.DrawFn, events: list[JSONObject], make: Callable[[], JSONObject]
) -> list[JSONObject]:
    """Insert one to three new events at drawn positions (before the first one included,
    after message_stop excluded: that is `late_events`' business)."""
    stop = _stop_position(events)
    for _ in range(draw(st.integers(1, 3))):
        position = draw(below(stop + 1))
        events.insert(position, make())
        stop += 1
    return events


def _stop_position(events: list[JSONObject]) -> int:
    for position, item in enumerate(events):
        if item.get("type") == "message_stop":
            return position
    return len(events)


def _add_envelope_keys(draw: st.DrawFn, events: list[JSONObject]) -> None:
    """Unknown keys on event envelopes: Bedrock's metrics on message_stop, a request id
    or trace key on any event."""
    stop = _stop_position(events)
    if stop < len(events) and draw(BOOLEANS):
        events[stop].update(copy.deepcopy(_BEDROCK_METRICS))
    for _ in range(draw(st.integers(0, 2))):
        target = events[draw(below(len(events)))]
        target.setdefault(draw(_ENVELOPE_KEYS), "req_noise")
