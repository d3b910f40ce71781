"""EV-GRAMMAR: the JSON shapes of §1, field by field, and the outcome of §5's protocol.

Each event must have exactly its variant's fields, of the JSON types §1 gives. A field
that holds any JSON value (`opaque`, `payload`, the turn's `opaque`) is only required to
be present. `ToolCall.arguments` is only required here: that it is an object is the rule
of its own, EV-ARGS-PARSED, so a string of JSON is reported once, under that rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..._compare import pointer
from ..._json import JSON

__all__ = ["ERROR_KINDS", "STOP_REASONS", "Outcome", "event_problems", "read_outcome", "usage_ok"]

STOP_REASONS = frozenset(
    {
        "end_turn",
        "tool_use",
        "max_tokens",
        "stop_sequence",
        "content_filter",
        "refusal",
        "pause_turn",
        "other",
    }
)
ERROR_KINDS = frozenset(
    {
        "truncated",
        "provider_error",
        "invalid_tool_arguments",
        "inconsistent_tool_arguments",
        "unsupported",
    }
)
_COUNTERS = ("input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens")

Field = Callable[[JSON], str | None]
"""Checks one field's value: None when it fits, else what was expected."""
Problem = tuple[str, str]
"""A JSON pointer into the event and what is wrong there."""


def _string(value: JSON) -> str | None:
    return None if isinstance(value, str) else "a string"


def _any(value: JSON) -> str | None:
    return None


def _counter(value: JSON) -> str | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return None
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return None  # JSON has one number type: 3.0 is the integer 3
    return "a non-negative integer or null"


def _stop(value: JSON) -> str | None:
    return (
        None
        if value in STOP_REASONS and isinstance(value, str)
        else ("one of " + ", ".join(sorted(STOP_REASONS)))
    )


def _response_id(value: JSON) -> str | None:
    return None if value is None or isinstance(value, str) else "a string or null"


def _fields(value: JSON, fields: dict[str, Any], path: list[str | int]) -> Iterator[Problem]:
    if not isinstance(value, dict):
        yield (
            pointer(path),
            (f"expected an object with keys {sorted(fields)}, received {_kind(value)}"),
        )
        return
    for key in sorted(set(value) - set(fields)):
        yield (
            pointer([*path, key]),
            (f"unexpected key {key!r}: the variant has only {sorted(fields)}"),
        )
    for key, spec in fields.items():
        if key not in value:
            yield pointer([*path, key]), f"missing key {key!r}"
        elif isinstance(spec, dict):
            yield from _fields(value[key], spec, [*path, key])
        elif spec is _calls:
            yield from _calls(value[key], [*path, key])
        else:
            expected = spec(value[key])
            if expected is not None:
                yield pointer([*path, key]), f"expected {expected}, received {_kind(value[key])}"


_TOOL_CALL: dict[str, Any] = {"id": _string, "name": _string, "arguments": _any}
_USAGE: dict[str, Any] = dict.fromkeys(_COUNTERS, _counter)


def _calls(value: JSON, path: list[str | int]) -> Iterator[Problem]:
    if not isinstance(value, list):
        yield pointer(path), f"expected an array of ToolCall, received {_kind(value)}"
        return
    for number, call in enumerate(value):
        yield from _fields(call, _TOOL_CALL, [*path, number])


_TURN: dict[str, Any] = {
    "provider": _string,
    "model": _string,
    "response_id": _response_id,
    "output_text": _string,
    "tool_calls": _calls,
    "stop_reason": _stop,
    "usage": _USAGE,
    "opaque": _any,
}

VARIANTS: dict[str, dict[str, Any]] = {
    "TextDelta": {"delta": _string, "opaque": _any},
    "ToolCallStarted": {"id": _string, "name": _string, "opaque": _any},
    "ToolCallArgumentsDelta": {"id": _string, "delta": _string, "opaque": _any},
    "ToolCallCompleted": {"call": _TOOL_CALL, "opaque": _any},
    "Usage": {"usage": _USAGE, "opaque": _any},
    "Completed": {"turn": _TURN},
    "Opaque": {"event_type": _string, "payload": _any},
}
"""§1: each variant's fields besides `type`."""


def usage_ok(value: JSON) -> bool:
    """True when `value` is a TokenUsage of §1's shape; the usage rules read only those."""
    return not list(_fields(value, _USAGE, []))


def event_problems(event: JSON) -> list[Problem]:
    """Every way `event` departs from its variant's shape (EV-GRAMMAR)."""
    if not isinstance(event, dict):
        return [("", f"expected an event object, received {_kind(event)}")]
    kind = event.get("type")
    if kind not in VARIANTS or not isinstance(kind, str):
        return [("/type", f"expected one of {', '.join(VARIANTS)}, received {kind!r}")]
    return list(_fields(event, {"type": _string, **VARIANTS[kind]}, []))


class Outcome:
    """The adapter's outcome: `completed` or `error` with a kind, as §5's protocol sends it.

    Accepted forms: the string `"completed"` or `"error"`, or the protocol message
    `{"outcome": "error", "error": {"kind": ..., "message": ...}}`. `problem` says what is
    wrong with any other form (charged to EV-GRAMMAR)."""

    __slots__ = ("kind", "name", "problem")

    def __init__(self, name: str | None, kind: str | None, problem: str | None) -> None:
        self.name = name
        self.kind = kind
        self.problem = problem


def read_outcome(value: JSON) -> Outcome:
    """Read an outcome in either accepted form."""
    error: JSON = None
    if isinstance(value, dict):
        error = value.get("error")
        value = value.get("outcome")
    if value == "completed":
        return Outcome("completed", None, None)
    if value != "error":
        return Outcome(None, None, f"the outcome is {value!r}, expected 'completed' or 'error'")
    kind = error.get("kind") if isinstance(error, dict) else None
    if kind in ERROR_KINDS and isinstance(kind, str):
        return Outcome("error", kind, None)
    if error is None:
        return Outcome("error", None, None)  # the bare string form names no kind
    return Outcome(
        "error",
        None,
        f"the error kind is {kind!r}, expected one of {', '.join(sorted(ERROR_KINDS))}",
    )


def _kind(value: JSON) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {value!r}".lower()
    if isinstance(value, int | float):
        return f"number {value!r}"
    if isinstance(value, str):
        return f"string {value[:40]!r}"
    return "array" if isinstance(value, list) else "object"
