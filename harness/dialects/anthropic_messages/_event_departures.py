"""The event-level departures of an Anthropic event stream from the plain shape, each
undone by a function named after the rule that says how it folds: what is not an event
object, events out of their place (before `message_start`, a second one, after
`message_stop`, after an `error`), unknown events, deltas and keys, wrong-typed payloads,
blocks started without their string, whitespace before a tool's JSON, untitled citations,
and the usage and stop reason `message_start` carries where family 1 puts them on
`message_delta`. The block-level ones are `_block_departures`; the table that tries them
in order is `ablation.DEPARTURES`.

Plain JSON in, plain JSON out; the input is never mutated.
"""

from __future__ import annotations

import copy
from typing import Any

from refold.reference import JSON, JSONObject, non_blank
from refold.verdicts.dropping import without
from refold.verdicts.undoing import Undo

from .._reading import index_of
from ._departures import citations_of, untitled

__all__ = [
    "after_stop",
    "before_start",
    "citation_titles",
    "life_error",
    "ping",
    "rob_not_object",
    "start_content",
    "start_once",
    "starts_message",
    "text_start",
    "thinking_start",
    "tool_leading_space",
    "unknown_delta",
    "unknown_event",
    "unknown_keys",
    "usage_absent",
    "wrong_type",
]

_EVENTS = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
        "error",
    }
)
_PAYLOADS: dict[str, tuple[str, type]] = {
    "text_delta": ("text", str),
    "input_json_delta": ("partial_json", str),
    "thinking_delta": ("thinking", str),
    "signature_delta": ("signature", str),
    "citations_delta": ("citation", dict),
}
"""The one field each known delta type carries, and the JSON type it must have."""
_DELTAS = frozenset(_PAYLOADS)
"""The delta types the spec names."""
_ENVELOPE_KEYS = frozenset({"type", "message", "index", "content_block", "delta", "usage", "error"})
_OBJECT_FIELDS = ("message", "content_block", "delta", "usage")


def _type(event: JSON) -> object:
    return event.get("type") if isinstance(event, dict) else None


def starts_message(event: JSON) -> bool:
    """Whether `event` is a message_start that starts the Message (its message an object)."""
    return _type(event) == "message_start" and isinstance(
        event.get("message") if isinstance(event, dict) else None, dict
    )


def rob_not_object(stream: list[JSON]) -> list[JSON]:
    """AM-ROB-NOT-OBJECT: drop the events that are not JSON objects."""
    return without(stream, lambda event: not isinstance(event, dict))


def before_start(stream: list[JSON]) -> list[JSON]:
    """AM-BEFORE-START: drop the events before the first message_start that starts the
    Message, except `error` events (which are recorded wherever they are)."""
    first = next((n for n, event in enumerate(stream) if starts_message(event)), len(stream))
    kept = [event for event in stream[:first] if _type(event) == "error"]
    return copy.deepcopy(kept + stream[first:])


def ping(stream: list[JSON]) -> list[JSON]:
    """AM-PING: drop the ping events."""
    return without(stream, lambda event: _type(event) == "ping")


def unknown_event(stream: list[JSON]) -> list[JSON]:
    """AM-UNKNOWN-EVENT: drop the objects whose type is not one the spec names."""
    return without(
        stream, lambda event: isinstance(event, dict) and event.get("type") not in _EVENTS
    )


def after_stop(stream: list[JSON]) -> list[JSON]:
    """AM-LIFE-AFTER-STOP: drop the events after the first message_stop."""
    stop = next((n for n, event in enumerate(stream) if _type(event) == "message_stop"), None)
    return copy.deepcopy(stream if stop is None else stream[: stop + 1])


def unknown_delta(stream: list[JSON]) -> list[JSON]:
    """AM-UNKNOWN-DELTA: drop the content_block_delta events of a delta type the spec
    does not name."""

    def unknown(event: JSON) -> bool:
        delta = event.get("delta") if isinstance(event, dict) else None
        return (
            _type(event) == "content_block_delta"
            and isinstance(delta, dict)
            and delta.get("type") not in _DELTAS
        )

    return without(stream, unknown)


def unknown_keys(stream: list[JSON]) -> list[JSON]:
    """AM-UNKNOWN-KEYS: drop the keys the spec does not name from the envelopes of the
    events it names (an unknown event is ignored whole: AM-UNKNOWN-EVENT's)."""
    return [
        {k: copy.deepcopy(v) for k, v in event.items() if k in _ENVELOPE_KEYS}
        if isinstance(event, dict) and event.get("type") in _EVENTS
        else copy.deepcopy(event)
        for event in stream
    ]


def _wrong_payload(event: JSON) -> bool:
    """Whether `event` is a content_block_delta of a known delta type whose field is
    present with the wrong JSON type (a `null` text, a number as `partial_json`...)."""
    delta = event.get("delta") if isinstance(event, dict) else None
    if _type(event) != "content_block_delta" or not isinstance(delta, dict):
        return False
    key, kind = _PAYLOADS.get(str(delta.get("type")), ("", object))
    return bool(key) and key in delta and not isinstance(delta[key], kind)


def wrong_type(stream: list[JSON]) -> list[JSON]:
    """AM-ROB-WRONG-TYPE: drop the envelope fields of the wrong JSON type (a `message`,
    `content_block`, `delta` or `usage` that is not an object; an `error` that is not
    one), and the deltas whose one field is of the wrong type (it adds nothing): the spec
    treats them as absent. A message_delta left without its `delta` gets the one that
    sets nothing (`stop_reason` and `stop_sequence` null), as the SDK's types require."""
    stream = without(stream, _wrong_payload)
    for event in stream:
        if not isinstance(event, dict):
            continue
        for key in (*_OBJECT_FIELDS, "error"):
            if key in event and not isinstance(event[key], dict):
                del event[key]
        if _type(event) == "message_delta" and "delta" not in event:
            event["delta"] = {"stop_reason": None, "stop_sequence": None}
    return stream


def start_once(stream: list[JSON]) -> list[JSON]:
    """AM-START-ONCE: drop every message_start (its message an object) after the first
    one and before the first message_stop (the page sends one per stream; later ones
    change nothing). One after message_stop is AM-LIFE-AFTER-STOP's; one whose message is
    not an object starts nothing (a wrong type)."""
    first = next((n for n, event in enumerate(stream) if starts_message(event)), len(stream))
    stop = next(
        (n for n, event in enumerate(stream) if n > first and _type(event) == "message_stop"),
        len(stream),
    )
    return [
        copy.deepcopy(event)
        for n, event in enumerate(stream)
        if not (first < n < stop and starts_message(event))
    ]


def life_error(stream: list[JSON]) -> list[JSON]:
    """AM-LIFE-ERROR: the stream cut before its first error event. The error is terminal
    and never copied into the Message, so the Message read is the same; an error after
    message_stop is AM-LIFE-AFTER-STOP's (it changes nothing there either)."""
    end = next(
        (n for n, event in enumerate(stream) if _type(event) in ("error", "message_stop")),
        None,
    )
    if end is None or _type(stream[end]) != "error":
        return copy.deepcopy(stream)
    return copy.deepcopy(stream[:end])


def _started_blank(block_type: str, key: str) -> Undo:
    """The undo giving every started `block_type` block whose `key` is not a string
    (absent, null, another type) the empty string there, as the rule reads it."""

    def undo(stream: list[JSON]) -> list[JSON]:
        stream = copy.deepcopy(stream)
        for event in stream:
            if not isinstance(event, dict) or event.get("type") != "content_block_start":
                continue
            block = event.get("content_block")
            if (
                isinstance(block, dict)
                and block.get("type") == block_type
                and not isinstance(block.get(key), str)
            ):
                block[key] = ""
        return stream

    return undo


text_start = _started_blank("text", "text")
"""AM-TEXT-JOIN: a text block started without a string `text` (AQ24: a proxy sends none)
starts from `""`, as the rule reads a blank start text."""

thinking_start = _started_blank("thinking", "thinking")
"""AM-THINK-JOIN: a thinking block started without a string `thinking` starts from `""`,
as the rule reads a blank start value."""


_TOOL_BLOCKS_JOINED = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
"""The block types `input_json_delta` applies to (AM-DELTA-MATCH)."""
_JSON_SPACE = " \t\n\r"
"""JSON's whitespace (RFC 8259 `ws`): a form feed or a no-break space is none."""


def _input_fragments(stream: list[JSON]) -> dict[int, list[dict[str, Any]]]:
    """The string `input_json_delta` deltas of each started tool block, by index."""
    tools = {
        index_of(event.get("index"))
        for event in stream
        if isinstance(event, dict)
        and event.get("type") == "content_block_start"
        and isinstance(event.get("content_block"), dict)
        and event["content_block"].get("type") in _TOOL_BLOCKS_JOINED
    }
    fragments: dict[int, list[dict[str, Any]]] = {}
    for event in stream:
        delta = event.get("delta") if isinstance(event, dict) else None
        if (
            _type(event) == "content_block_delta"
            and isinstance(event, dict)
            and (index := index_of(event.get("index"))) is not None
            and index in tools
            and isinstance(delta, dict)
            and delta.get("type") == "input_json_delta"
            and isinstance(delta.get("partial_json"), str)
        ):
            fragments.setdefault(index, []).append(delta)
    return fragments


def tool_leading_space(stream: list[JSON]) -> list[JSON]:
    """AM-TOOL-JOIN: the JSON whitespace before a tool block's input taken out of its
    fragments (a fragment left empty stays, as `""`). Joined and parsed once, as the rule
    reads it, the input is the same; an SDK that parses what it has after each fragment
    (AQ8) fails on a fragment of whitespace alone. Whitespace-only input is left:
    AM-TOOL-NO-DELTA decides it."""
    stream = copy.deepcopy(stream)
    for deltas in _input_fragments(stream).values():
        if not "".join(d["partial_json"] for d in deltas).strip(_JSON_SPACE):
            continue
        for delta in deltas:
            delta["partial_json"] = delta["partial_json"].lstrip(_JSON_SPACE)
            if delta["partial_json"]:
                break
    return stream


def citation_titles(stream: list[JSON]) -> list[JSON]:
    """AM-CITATIONS-APPEND: every citation (streamed, or on its block's start) without
    the title key its location type always carries (`document_title`, `title`) gets it as
    `null`, the API's value when there is none; a null key compares as absent, so the
    fold is the same (`_departures.detect_untitled` tells the departure)."""
    stream = copy.deepcopy(stream)
    for event in stream:
        for citation in citations_of(event):
            key = untitled(citation)
            if key is not None:
                citation[key] = None
    return stream


def _has_usage(event: JSON) -> bool:
    if not isinstance(event, dict):
        return False
    holder = event.get("message") if _type(event) == "message_start" else event
    return isinstance(holder, dict) and isinstance(holder.get("usage"), dict)


def usage_absent(stream: list[JSON]) -> list[JSON]:
    """AM-USAGE-ABSENT: a message_start or message_delta without a usage object gets one
    (family 1 reports usage on both). Only `/usage` may change, whether there is one
    (AM-USAGE-ABSENT owns no count): when no event reports usage, each gets the counts the
    SDK's types require, zeros; otherwise a message_delta gets the output count reported
    last, and an object with no count where none was reported yet (a count added there
    would change the folded counts)."""
    stream = copy.deepcopy(stream)
    counted = any(_has_usage(event) for event in stream)
    reported: int | None = None if counted else 0
    for event in stream:
        if not isinstance(event, dict):
            continue
        holder = event.get("message") if _type(event) == "message_start" else event
        if _type(event) not in ("message_start", "message_delta") or not isinstance(holder, dict):
            continue
        if not _has_usage(event):
            holder["usage"] = (
                ({} if counted else {"input_tokens": 0, "output_tokens": 0})
                if _type(event) == "message_start"
                else ({} if reported is None else {"output_tokens": reported})
            )
        count = holder["usage"].get("output_tokens")
        if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
            reported = count
    return stream


def start_content(stream: list[JSON]) -> list[JSON]:
    """AM-START-CONTENT: blocks sent inside the first message_start's `content` are sent
    as content_block_start/content_block_stop events right after it, at indexes 0..n-1,
    and a stop reason set there with no message_delta after it is sent in one before
    message_stop (AQ7's shape undone to family 1's)."""
    stream = copy.deepcopy(stream)
    first = next((n for n, event in enumerate(stream) if starts_message(event)), None)
    if first is None:
        return stream
    start = stream[first]
    message = start.get("message") if isinstance(start, dict) else None
    if not isinstance(message, dict):  # never: `_starts` found it holding one
        return stream
    stream = _stop_in_a_delta(stream, first, message)
    content = message.get("content")
    if not isinstance(content, list) or not content:
        return stream
    message["content"] = []
    moved: list[JSON] = []
    for index, block in enumerate(content):
        moved += [
            {"type": "content_block_start", "index": index, "content_block": block},
            {"type": "content_block_stop", "index": index},
        ]
    return [*stream[: first + 1], *moved, *stream[first + 1 :]]


def _stop_in_a_delta(stream: list[JSON], first: int, message: JSONObject) -> list[JSON]:
    """The start's non-blank stop reason (and stop sequence) moved into a message_delta
    before the message_stop, when no message_delta follows the start to replace it; the
    delta carries the start's usage, so every count stays what it was."""
    reason = message.get("stop_reason")
    after = stream[first + 1 :]
    if non_blank(reason) is None or any(_type(event) == "message_delta" for event in after):
        return stream
    delta: JSONObject = {
        "type": "message_delta",
        "delta": {"stop_reason": reason, "stop_sequence": message.get("stop_sequence")},
    }
    if isinstance(message.get("usage"), dict):
        delta["usage"] = copy.deepcopy(message["usage"])
    message["stop_reason"], message["stop_sequence"] = None, None
    stop = next((n for n, e in enumerate(after) if _type(e) == "message_stop"), len(after))
    return [*stream[: first + 1], *after[:stop], delta, *after[stop:]]
