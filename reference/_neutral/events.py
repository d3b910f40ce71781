"""The neutral events, their vocabularies and the outcome of a stream (events.md §1, §5).

Every constructor returns a new plain JSON value: the frame an event carries as `opaque`
(or `payload`) is a deep copy, so a caller that mutates a frame after handing it over, or
an event after receiving it, changes nothing the adapter keeps (EV-OPAQUE-FRAME).
"""

from __future__ import annotations

from typing import Any, TypeAlias

from .._json import JSON, JSONObject, copy_json

__all__ = [
    "ERROR_KINDS",
    "EVENT_TYPES",
    "STOP_REASONS",
    "Event",
    "Outcome",
    "arguments_delta",
    "completed",
    "completed_outcome",
    "error_outcome",
    "opaque",
    "text_delta",
    "token_usage",
    "tool_call_completed",
    "tool_call_started",
    "unreported_usage",
    "usage",
]

Event: TypeAlias = dict[str, Any]
"""One neutral event: a JSON object whose `type` is the variant name (EV-GRAMMAR)."""

Outcome: TypeAlias = dict[str, Any]
"""`{"outcome": "completed"}` or `{"outcome": "error", "error": {"kind", "message"}}`:
the protocol's outcome line without its `stream` key (events.md §5, step 4)."""

EVENT_TYPES = (
    "TextDelta",
    "ToolCallStarted",
    "ToolCallArgumentsDelta",
    "ToolCallCompleted",
    "Usage",
    "Completed",
    "Opaque",
)
"""The seven variants of proofborne-core's `ProviderStreamEvent` (EV-GRAMMAR)."""

STOP_REASONS = (
    "end_turn",
    "tool_use",
    "max_tokens",
    "stop_sequence",
    "content_filter",
    "refusal",
    "pause_turn",
    "other",
)
"""The closed `StopReason` vocabulary; `other` for any unmapped value (EV-STOP-MAP)."""

ERROR_KINDS = (
    "truncated",
    "provider_error",
    "invalid_tool_arguments",
    "inconsistent_tool_arguments",
    "unsupported",
)
"""The kinds of an `error` outcome (events.md §5, step 4)."""


def text_delta(delta: str, frame: JSON) -> Event:
    """EV-TEXT: one non-empty public text fragment, verbatim."""
    return {"type": "TextDelta", "delta": delta, "opaque": copy_json(frame)}


def tool_call_started(call_id: str, name: str, frame: JSON) -> Event:
    """EV-CALL-STARTED: a client-executed call whose id and name are known."""
    return {"type": "ToolCallStarted", "id": call_id, "name": name, "opaque": copy_json(frame)}


def arguments_delta(call_id: str, delta: str, frame: JSON) -> Event:
    """EV-ARGS-DELTA: one non-empty argument fragment the dialect fold appended."""
    return {
        "type": "ToolCallArgumentsDelta",
        "id": call_id,
        "delta": delta,
        "opaque": copy_json(frame),
    }


def tool_call_completed(call_id: str, name: str, arguments: JSONObject, frame: JSON) -> Event:
    """EV-ARGS-PARSED: the call with its arguments parsed into a JSON object."""
    call = {"id": call_id, "name": name, "arguments": copy_json(arguments)}
    return {"type": "ToolCallCompleted", "call": call, "opaque": copy_json(frame)}


def usage(snapshot: JSONObject, frame: JSON) -> Event:
    """EV-USAGE: the whole normalised snapshot, never an increment."""
    return {"type": "Usage", "usage": dict(snapshot), "opaque": copy_json(frame)}


def completed(turn: JSONObject) -> Event:
    """EV-COMPLETED-LAST: the terminal event; it carries no `opaque` of its own."""
    return {"type": "Completed", "turn": turn}


def opaque(event_type: str, frame: JSON) -> Event:
    """EV-OPAQUE-FALLBACK: a frame with no neutral meaning, kept whole as `payload`."""
    return {"type": "Opaque", "event_type": event_type, "payload": copy_json(frame)}


def token_usage(
    input_tokens: int | None,
    output_tokens: int | None,
    cached_input_tokens: int | None,
    reasoning_tokens: int | None,
) -> JSONObject:
    """A `TokenUsage`: four counters, `null` meaning "not reported"."""
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cached_input_tokens": cached_input_tokens,
        "reasoning_tokens": reasoning_tokens,
    }


def unreported_usage() -> JSONObject:
    """EV-USAGE-UNREPORTED: the usage of a turn no Usage event reported."""
    return token_usage(None, None, None, None)


def completed_outcome() -> Outcome:
    """The outcome of a stream that ended with its dialect's terminal."""
    return {"outcome": "completed"}


def error_outcome(kind: str, message: str) -> Outcome:
    """The outcome of a failed stream. `message` never quotes a frame (PERSIST-CANARY)."""
    return {"outcome": "error", "error": {"kind": kind, "message": message}}
