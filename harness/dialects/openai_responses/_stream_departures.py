"""The stream-level departures of an OpenAI Responses event stream from OpenAI's own shape,
each named after its rule, and how to undo them (`refold.dialects.openai_responses.ablation` holds
the
registry; `refold.dialects.openai_responses._item_departures` the item-level ones).

OpenAI's own shape is the spec's split family 1: lifecycle events, per item its added,
parts, deltas and done events, one terminal event with the whole response, and nothing
else. A stream that sends more (keepalives and unknown events, `error` events, blank
items, unknown keys, `sequence_number`s out of order, a repeated terminal, events after
the terminal) departs in the way one rule decides; each undo removes that departure
only. Plain JSON in, plain JSON out; the input is never mutated.
"""

from __future__ import annotations

import copy

from refold.reference import JSON
from refold.reference.responses._envelope import LIFECYCLE_EVENTS, TERMINAL_EVENTS
from refold.reference.responses._routing import ITEM_EVENTS
from refold.verdicts.dropping import without

__all__ = [
    "after_terminal",
    "error_event",
    "is_terminal",
    "keepalive",
    "null_item",
    "seq_arrival",
    "terminal_events",
    "terminal_repeat",
    "unknown_keys",
]

_ITEM_DONE = ("response.output_item.added", "response.output_item.done")
_KNOWN = frozenset({*LIFECYCLE_EVENTS, *TERMINAL_EVENTS, *ITEM_EVENTS, *_ITEM_DONE, "error"})
"""Every event type the reference fold names (any other is RS-KEEPALIVE's)."""
_READ_KEYS = frozenset(
    {
        "type",
        "sequence_number",
        "response",
        "item",
        "part",
        "annotation",
        "delta",
        "text",
        "refusal",
        "arguments",
        "item_id",
        "output_index",
        "content_index",
        "summary_index",
        "annotation_index",
    }
)
"""The keys of an event the spec names (RS-UNKNOWN-KEYS: any other changes nothing)."""


def _type(event: JSON) -> object:
    return event.get("type") if isinstance(event, dict) else None


def _known(event: dict[str, JSON]) -> bool:
    return isinstance(event.get("type"), str) and event["type"] in _KNOWN


def is_terminal(event: JSON) -> bool:
    """A terminal event that finishes the fold (RS-WRONG-TYPE: its response an object)."""
    return (
        isinstance(event, dict)
        and _type(event) in TERMINAL_EVENTS
        and isinstance(event.get("response"), dict)
    )


def keepalive(stream: list[JSON]) -> list[JSON]:
    """RS-KEEPALIVE: drop the objects whose type is not one the spec names (`keepalive`,
    unknown or blank types)."""
    return without(stream, lambda event: isinstance(event, dict) and not _known(event))


def error_event(stream: list[JSON]) -> list[JSON]:
    """RS-ERROR-EVENT: drop the top-level `error` events."""
    return without(stream, lambda event: _type(event) == "error")


def null_item(stream: list[JSON]) -> list[JSON]:
    """RS-NULL-ITEM: drop the `output_item.added` events whose item is not an object."""
    return without(stream, _null_item)


def _null_item(event: JSON) -> bool:
    return (
        _type(event) == "response.output_item.added"
        and isinstance(event, dict)
        and not isinstance(event.get("item"), dict)
    )


_SCHEMA_KEYS: dict[str, dict[str, JSON]] = {
    "response.output_text.delta": {"logprobs": []},
    "response.output_text.done": {"logprobs": []},
    "response.function_call_arguments.done": {},
}
"""Keys OpenAI's schema requires on an event type beside the ones the spec names, with the
value OpenAI's own shape gives them (None: kept as sent): a text event's `logprobs` is
`[]` there (whatever a stream puts in it is RS-UNKNOWN-KEYS's), an arguments done event's
`name` as sent."""


def _known_keys(event: dict[str, JSON]) -> dict[str, JSON]:
    kept = {k: copy.deepcopy(v) for k, v in event.items() if k in _READ_KEYS}
    documented = _SCHEMA_KEYS.get(str(event.get("type")), {})
    if "logprobs" in documented and "logprobs" in event:
        kept["logprobs"] = []
    if event.get("type") == "response.function_call_arguments.done" and "name" in event:
        kept["name"] = copy.deepcopy(event["name"])
    return kept


def unknown_keys(stream: list[JSON]) -> list[JSON]:
    """RS-UNKNOWN-KEYS: drop the keys the spec does not name from the events it names
    (`obfuscation`, vendor keys; `logprobs` on text events back to `[]`; an `error`
    event is left whole: it is RS-ERROR-EVENT's, and a response, item or part is kept as
    sent). The keys OpenAI's schema requires stay: a plain stream has none to drop."""
    return [
        _known_keys(event)
        if isinstance(event, dict) and _type(event) in _KNOWN and _type(event) != "error"
        else copy.deepcopy(event)
        for event in stream
    ]


def seq_arrival(stream: list[JSON]) -> list[JSON]:
    """RS-SEQ-ARRIVAL: the events that carry a `sequence_number` numbered 0, 1, 2 ... in
    arrival order (no gaps, repeats or disorder)."""
    stream = [copy.deepcopy(event) for event in stream]  # no object shared by two
    numbered = [event for event in stream if isinstance(event, dict) and "sequence_number" in event]
    for number, event in enumerate(numbered):
        assert isinstance(event, dict)  # only objects were numbered
        event["sequence_number"] = number
    return stream


def terminal_repeat(stream: list[JSON]) -> list[JSON]:
    """RS-TERMINAL-REPEAT: drop every terminal event but the last (each replaces the one
    before it)."""
    last = max((n for n, event in enumerate(stream) if is_terminal(event)), default=-1)
    return [
        copy.deepcopy(event)
        for n, event in enumerate(stream)
        if n == last or not is_terminal(event)
    ]


def after_terminal(stream: list[JSON]) -> list[JSON]:
    """LIFE-RS-AFTER: the events after the first terminal event that are not terminal
    events moved to just before it (a lifecycle event after the last terminal is dropped
    instead: the result no longer reads it), so only terminals follow a terminal."""
    first = next((n for n, event in enumerate(stream) if is_terminal(event)), None)
    if first is None:
        return copy.deepcopy(stream)
    last = max(n for n, event in enumerate(stream) if is_terminal(event))
    late = [
        (n, event)
        for n, event in enumerate(stream[first + 1 :], first + 1)
        if not is_terminal(event)
    ]
    moved = [event for n, event in late if not (n > last and _type(event) in LIFECYCLE_EVENTS)]
    kept = [
        event for n, event in enumerate(stream[first:], first) if n == first or is_terminal(event)
    ]
    return copy.deepcopy([*stream[:first], *moved, *kept])


def terminal_events(stream: list[JSON]) -> list[JSON]:
    """RS-TERMINAL-EVENTS: every `response.incomplete` and `response.failed` event sent as
    `response.completed` (its response as sent: the status it carries is the result's),
    a failed one's `error` sent as null (RS-FAILED's place: a completed response has
    none, and an SDK raises the error it reads there)."""
    result: list[JSON] = []
    for event in stream:
        copied = copy.deepcopy(event)
        if (
            is_terminal(copied)
            and isinstance(copied, dict)
            and (copied["type"] != "response.completed")
        ):
            if copied["type"] == "response.failed" and "error" in copied["response"]:
                copied["response"]["error"] = None
            copied["type"] = "response.completed"
        result.append(copied)
    return result
