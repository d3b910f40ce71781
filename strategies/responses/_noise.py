"""Split family 7: events, keys and numbers that must not change the fold.

Each kind of noise sits behind its own branch, so a failing example shrinks to the one
kind that matters, and each is drawn only for a target claiming the rules that decide it
(`SHAPES`): `sequence_number` gaps, repeats, disorder and absence (RS-SEQ-ARRIVAL),
`response.queued`, lifecycle responses with earlier values of terminal-only fields
(RS-ENV-TERMINAL), the terminal event repeated (RS-TERMINAL-REPEAT); under `robustness`
`keepalive` and unknown events (RS-KEEPALIVE), `obfuscation`, vendor keys and `logprobs`
on deltas (RS-UNKNOWN-KEYS).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection

from hypothesis import event
from hypothesis import strategies as st

from refold.reference import JSONObject

from .._text import BOOLEANS, below, identities
from ._claims import allows

__all__ = ["UNKNOWN_EVENTS", "is_terminal", "with_noise"]

TERMINALS = ("response.completed", "response.incomplete", "response.failed")
LIFECYCLES = ("response.created", "response.queued", "response.in_progress")

UNKNOWN_EVENTS: tuple[JSONObject, ...] = (
    {"type": "response.x_future_event", "response": {"id": "resp_other", "output": []}},
    {"type": "x_vendor.trace", "usage": {"input_tokens": 99, "output_tokens": 99}},
    {"type": "response.audio.transcript.x_unknown", "delta": "x"},
)
"""Events whose type the fold does not know, without an `output_index` (an event with
one is an item event: RS-ORPHAN's): each looks like it means something."""

_TIERS = ("auto", "default", "flex", "priority")
_LOGPROBS = [{"token": "x", "logprob": -0.5, "bytes": [120], "top_logprobs": []}]


def is_terminal(item: JSONObject) -> bool:
    return item.get("type") in TERMINALS


def _terminal_position(events: list[JSONObject]) -> int:
    return next((i for i, item in enumerate(events) if is_terminal(item)), len(events))


def with_noise(
    draw: st.DrawFn, events: list[JSONObject], response: JSONObject, *, features: Collection[str]
) -> list[JSONObject]:
    """The events with family-7 noise added and numbered; the fold is unchanged."""
    events = copy.deepcopy(events)
    if allows("queued", features) and draw(BOOLEANS):
        event("noise: response.queued")
        queued = copy.deepcopy(events[0]["response"])
        queued["status"] = "queued"
        events.insert(1, {"type": "response.queued", "response": queued})
    if allows("earlier lifecycle values", features) and draw(BOOLEANS):
        event("noise: earlier lifecycle values")
        _earlier_values(draw, events, response)
    if allows("keepalives", features) and draw(BOOLEANS):
        event("noise: keepalives")
        _inserted(draw, events, lambda: {"type": "keepalive"})
    if allows("unknown events", features) and draw(BOOLEANS):
        event("noise: unknown events")
        _inserted(draw, events, lambda: copy.deepcopy(draw(st.sampled_from(UNKNOWN_EVENTS))))
    if allows("unknown keys", features) and draw(BOOLEANS):
        event("noise: unknown keys")
        _unknown_keys(draw, events)
    if allows("repeated terminals", features) and draw(BOOLEANS):
        event("noise: repeated terminal")
        events += [
            copy.deepcopy(events[_terminal_position(events)])
            for _ in range(draw(st.integers(1, 2)))
        ]
    events = [{**item, "sequence_number": number} for number, item in enumerate(events)]
    if allows("sequence numbers", features) and draw(BOOLEANS):
        event("noise: sequence numbers")
        _renumbered(draw, events)
    return events


def _earlier_values(draw: st.DrawFn, events: list[JSONObject], response: JSONObject) -> None:
    """Lifecycle responses with an earlier `service_tier` and `usage` than the terminal's
    (only for keys the terminal has: RS-ENV-FILL would take them otherwise)."""
    for item in events:
        if item.get("type") not in LIFECYCLES:
            continue
        if isinstance(response.get("service_tier"), str) and draw(BOOLEANS):
            item["response"]["service_tier"] = draw(st.sampled_from(_TIERS))
        if isinstance(response.get("usage"), dict) and draw(BOOLEANS):
            given = draw(st.integers(0, 50))
            item["response"]["usage"] = {  # whole, as the schema types usage
                "input_tokens": given,
                "output_tokens": 0,
                "total_tokens": given,
                "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 0},
            }


def _inserted(draw: st.DrawFn, events: list[JSONObject], make: Callable[[], JSONObject]) -> None:
    """Insert one to three events at drawn positions up to the terminal event (the first
    included; after the terminal is lifecycle's business)."""
    for _ in range(draw(st.integers(1, 3))):
        events.insert(draw(below(_terminal_position(events) + 1)), make())


def _unknown_keys(draw: st.DrawFn, events: list[JSONObject]) -> None:
    """`obfuscation` on deltas, `logprobs` on text deltas, a vendor key on any event."""
    for item in events:
        kind = str(item.get("type", ""))
        if kind.endswith(".delta") and draw(BOOLEANS):
            item["obfuscation"] = draw(identities(""))
        if kind == "response.output_text.delta" and draw(BOOLEANS):
            item["logprobs"] = copy.deepcopy(_LOGPROBS)
    for _ in range(draw(st.integers(0, 2))):
        events[draw(below(len(events)))].setdefault("x_vendor", {"trace": "t1"})


def _renumbered(draw: st.DrawFn, events: list[JSONObject]) -> None:
    """`sequence_number` with gaps, repeats, disorder or absence (RS-SEQ-ARRIVAL)."""
    for item in events:
        how = draw(st.sampled_from(["kept", "gap", "repeat", "disorder", "absent"]))
        if how == "gap":
            item["sequence_number"] += draw(st.integers(1, 5))
        elif how == "repeat":
            item["sequence_number"] = max(0, item["sequence_number"] - 1)
        elif how == "disorder":
            item["sequence_number"] = draw(below(len(events)))
        elif how == "absent":
            del item["sequence_number"]
