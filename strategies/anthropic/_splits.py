"""Lossless event splits of a known message: `fold(event_splits(m)) == m`.

The stream is built in the order Anthropic sends it: `message_start` with the envelope
(`_envelope`), each block's events (`_blocks.block_events`, mixed per block), the
`message_delta` events (`_message_deltas`), `message_stop`; family 9 replaces all of it
by a finished message inside `message_start`, and family 8 adds its noise last.
"""

from __future__ import annotations

import copy
from collections.abc import Collection

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference import JSON, JSONObject

from .._text import BOOLEANS
from ._blocks import block_events
from ._noise import with_noise

__all__ = ["SPLIT_FAMILIES", "event_splits"]

SPLIT_FAMILIES: frozenset[int] = frozenset(range(1, 10))
"""The spec's lossless split families, 1 (Anthropic's own shape) to 9 (finished blocks
inside message_start)."""

_FINAL = ("content", "stop_reason", "stop_sequence", "stop_details", "usage")
"""Message keys that streaming delivers after message_start."""

_PROVISIONAL_OUTPUT = 1
"""message_start's provisional `output_tokens` in Anthropic's own shape (docs: 1)."""

_REQUIRED_USAGE = frozenset({"input_tokens", "output_tokens"})
"""The counts the SDK's `Usage` requires on message_start (input_tokens re-reported
later holds an earlier value there, as in the docs' web search stream)."""

_counts = st.integers(0, 20_000)


@st.composite
def event_splits(
    draw: st.DrawFn,
    message: JSONObject,
    *,
    families: Collection[int] = SPLIT_FAMILIES,
    late_events: bool = True,
) -> list[JSONObject]:
    """Draw an event stream whose fold is exactly `message` (canonical comparison).

    `message` is a value drawn by `messages()`. The stream is drawn from the given
    lossless split families of the spec, mixed per block: family 1, Anthropic's own
    shape, is the base, and each other family adds its shapes (2 text splits, 3 tool
    JSON texts, 4 thinking splits, 5 citations among text deltas, 6 delta-less blocks,
    7 usage re-reported, 8 noise, 9 the message finished inside message_start).
    `late_events` lets family 8 add events after `message_stop` (AM-LIFE-AFTER-STOP:
    pass False for a target that does not claim `lifecycle`).
    """
    unknown = sorted(set(families) - SPLIT_FAMILIES)
    if unknown or not families:
        raise InvalidArgument(f"families={sorted(families)!r}: each must be one of 1..9")
    usage = message.get("usage", {})
    reported = _re_reported(draw, usage) if 7 in families else None
    events = [{"type": "message_start", "message": _envelope(draw, message, reported)}]
    for index, block in enumerate(message["content"]):
        events += block_events(draw, index, block, families)
    events += _message_deltas(draw, message, reported)
    events.append({"type": "message_stop"})
    # drawn after the streamed shape, so that family 9 costs one choice more than it
    # and the shrinker ends on the documented stream, not on the finished message_start
    if 9 in families and draw(BOOLEANS):
        events = _finished_on_start(message)
    if 8 in families:
        events = with_noise(draw, events, late_events=late_events)
    event(f"split: {min(len(events), 20)}{'+' if len(events) >= 20 else ''} events")
    return events


def _finished_on_start(message: JSONObject) -> list[JSONObject]:
    """Family 9: every block finished inside message_start, stop_reason set there,
    only message_stop after it (programmatic tool calling, AM-START-CONTENT)."""
    return [{"type": "message_start", "message": copy.deepcopy(message)}, {"type": "message_stop"}]


def _envelope(draw: st.DrawFn, message: JSONObject, reported: list[str] | None) -> JSONObject:
    envelope = {key: copy.deepcopy(value) for key, value in message.items() if key not in _FINAL}
    envelope.update(content=[], stop_reason=None, stop_sequence=None)
    if "usage" in message:
        envelope["usage"] = _start_usage(draw, message["usage"], reported)
    return envelope


def _start_usage(draw: st.DrawFn, usage: JSONObject, reported: list[str] | None) -> JSONObject:
    """Family 1 (`reported` None): every final count and a provisional `output_tokens`;
    family 7: keys that message_delta re-reports hold an earlier value, or are absent."""
    start = {**copy.deepcopy(usage), "output_tokens": _PROVISIONAL_OUTPUT}
    for key in reported or ():
        if key in _REQUIRED_USAGE:
            continue  # the SDK's Usage requires both counts: output_tokens is provisional
        if draw(BOOLEANS):
            del start[key]
        elif isinstance(usage[key], int):
            start[key] = draw(_counts)
    if "input_tokens" in (reported or ()) and draw(BOOLEANS):
        start["input_tokens"] = draw(_counts)
    return start


def _re_reported(draw: st.DrawFn, usage: JSONObject) -> list[str]:
    """The usage keys the final message_delta carries: `output_tokens` always, under
    family 7 any subset of the others (drawn once per stream)."""
    others = [key for key in usage if key != "output_tokens"]
    chosen: list[str] = draw(st.lists(st.sampled_from(others), unique=True)) if others else []
    return ["output_tokens", *chosen]


def _message_deltas(
    draw: st.DrawFn, message: JSONObject, reported: list[str] | None
) -> list[JSONObject]:
    """One message_delta with the final values; under family 7 earlier ones with a
    blank stop_reason and intermediate usage."""
    delta: JSONObject = {
        "stop_reason": message["stop_reason"],
        "stop_sequence": message.get("stop_sequence"),
    }
    if "stop_details" in message:
        delta["stop_details"] = copy.deepcopy(message["stop_details"])
    last: JSONObject = {"type": "message_delta", "delta": delta}
    if "usage" not in message:
        return [last]
    usage = message["usage"]
    keys = reported or ["output_tokens"]
    last["usage"] = {key: copy.deepcopy(usage[key]) for key in keys}
    earlier: list[JSONObject] = []
    if reported is not None and draw(BOOLEANS):
        earlier = [_earlier_delta(draw, keys) for _ in range(draw(st.integers(1, 2)))]
    return [*earlier, last]


def _earlier_delta(draw: st.DrawFn, keys: list[str]) -> JSONObject:
    """A message_delta before the last: blank stop_reason, usage the last replaces."""
    blank: JSON = draw(st.sampled_from([None, "absent"]))
    delta: JSONObject = {} if blank == "absent" else {"stop_reason": None, "stop_sequence": None}
    counts = [key for key in keys if key in ("output_tokens", "input_tokens")]
    return {
        "type": "message_delta",
        "delta": delta,
        "usage": {key: draw(_counts) for key in counts},
    }
