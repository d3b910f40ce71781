"""Anthropic Messages events → neutral events (events.md §4.3).

Built on the Anthropic reference fold: its `Accumulator` folds every event and decides
what each does (AM-BEFORE-START, AM-START-ONCE, AM-BLOCK-OPEN / -REOPEN, AM-LIFE-ERROR,
AM-LIFE-FINISHED); its Message is T.opaque (EV-TURN-OPAQUE), its usage the Usage snapshots
and its tool blocks' `input` the completed arguments (AM-TOOL-JOIN / -NO-DELTA / -INVALID).
The mapping reads those decisions; it re-decides no AM rule, but one.

Decision (EV-ARGS-CONSERVE and EV-ARGS-INVALID vs AM-TOOL-NO-DELTA, for input deltas of
JSON whitespace alone): the Anthropic fold calls such joined input "empty" and keeps the
start's `input`, while events.md makes only `""` the empty object (§4.3 "parsed; `""` →
`{}`; unparseable → error", EV-ARGS-EMPTY-OBJECT) and holds the deltas, joined and
parsed, equal to the completed arguments. The deltas were emitted (EV-ARGS-DELTA: the
fold appended them), and whitespace alone is no JSON text, so the faithful reading of
the events contract is the literal one, the checker's: the call's arguments are
unparseable at its content_block_stop and the stream ends in `invalid_tool_arguments`,
whatever the start carried (the same answer as for Chat, where the chat fold keeps such
arguments as they are).
"""

from __future__ import annotations

from collections.abc import Callable

from ..._json import JSON, JSONObject, non_blank, non_negative_int, object_or_none
from ..._neutral.calls import PendingCall
from ..._neutral.events import Event, text_delta, usage
from ..._neutral.mapping import Mapping, boundary_arguments
from .. import Accumulator

__all__ = ["AnthropicMapping"]

_STOP = frozenset({"end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal"})
"""EV-STOP-MAP for Anthropic: these stop reasons are themselves; any other is `other`."""


def _count(value: JSON) -> int | None:
    return non_negative_int(value)


def anthropic_usage(value: JSONObject | None) -> JSONObject:
    """§4.3 usage mapping: the disjoint cache buckets are added into input (NE-31)."""
    value = value or {}
    buckets = [
        _count(value.get(key))
        for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    ]
    reported = [count for count in buckets if count is not None]
    return {
        "input_tokens": sum(reported) if reported else None,
        "output_tokens": _count(value.get("output_tokens")),
        "cached_input_tokens": buckets[2],
        "reasoning_tokens": None,
    }


class AnthropicMapping(Mapping):
    """One Anthropic Messages stream: the event objects, in arrival order."""

    provider = "anthropic-messages"

    _was_open: bool
    """The frame's index held a block before the fold read it: set by `_frame` before
    every handler that reads it, so it has no initial value."""

    def __init__(self) -> None:
        super().__init__()
        self._fold = Accumulator()
        self._kinds: dict[int, str | None] = {}  # block index -> its type (AM-DELTA-MATCH)
        self._calls: dict[int, PendingCall] = {}  # client tool_use blocks by index
        self._ids: set[str] = set()

    def _frame(self, frame: JSON) -> list[Event]:
        if not isinstance(frame, dict):
            return []  # AM-ROB-NOT-OBJECT: the fold refuses it; EV-UNKNOWN: Opaque
        started, self._was_open = self._fold._message is not None, self._holds(frame)
        self._fold.add(frame)
        if self._fold.error is not None:  # AM-LIFE-ERROR, wherever it arrives
            self.fail("provider_error", "EV-ERROR-FRAME: the provider sent an error event")
            return [self.opaque(frame)]
        if not started:
            return self._message_start(frame) if self._fold._message is not None else []
        handler = _HANDLERS.get(non_blank(frame.get("type")) or "")
        return handler(self, frame) if handler is not None else []  # EV-UNKNOWN

    def _holds(self, frame: JSONObject) -> bool:
        """Whether the fold held a block at the index of `frame` before reading it (the
        fold's own block table: AM-BLOCK-OPEN and AM-BLOCK-REOPEN decide)."""
        index = non_negative_int(frame.get("index"))
        return index is not None and index in self._fold._blocks._blocks

    def _message_start(self, frame: JSONObject) -> list[Event]:
        """Usage (the initial snapshot), then the blocks it already holds (AM-START-CONTENT)."""
        message = self._fold.response()
        events: list[Event] = []
        if "usage" in message:
            events.append(usage(anthropic_usage(message["usage"]), frame))
        start = object_or_none(frame.get("message")) or {}
        content = start.get("content")
        for index, block in enumerate(content if isinstance(content, list) else []):
            if isinstance(block, dict) and index in self._fold._blocks._blocks:
                events += self._opened(index, block, frame)
                if self.outcome is not None:
                    return events
                if index in self._calls:  # a finished block: its call completes here
                    events += self._stop(self._calls[index], frame)
        return events

    def _block_start(self, frame: JSONObject) -> list[Event]:
        index = non_negative_int(frame.get("index"))
        if index is None or self._was_open or index not in self._fold._blocks._blocks:
            return []  # AM-ROB-WRONG-TYPE, AM-BLOCK-REOPEN: the fold opened nothing
        return self._opened(index, object_or_none(frame.get("content_block")) or {}, frame)

    def _opened(self, index: int, block: JSONObject, frame: JSONObject) -> list[Event]:
        kind = non_blank(block.get("type"))
        self._kinds[index] = kind
        if kind == "text":
            text = block.get("text")  # AM-TEXT-JOIN: the start's text is real
            return [text_delta(text, frame)] if isinstance(text, str) and text else []
        if kind != "tool_use":
            return []  # EV-HOSTED-OPAQUE (server_tool_use, mcp_tool_use, results), thinking
        pending = self._calls[index] = PendingCall(index)
        call_id, name = non_blank(block.get("id")), non_blank(block.get("name"))
        events = pending.take("", call_id, name, frame, self._ids)
        if events is None or not pending.started:
            self.fail(
                "unsupported",
                "EV-CALL-STARTED, EV-IDS-SINGLE-USE: a tool_use block "
                "without an id and a name, or with an id already used in the turn",
            )
            return []
        return events

    def _block_delta(self, frame: JSONObject) -> list[Event]:
        index = non_negative_int(frame.get("index"))
        if index is None:
            return []  # AM-DELTA-ROUTE: no index, no block: Opaque
        delta = object_or_none(frame.get("delta")) or {}
        kind = non_blank(delta.get("type"))
        block = self._kinds.get(index)
        if kind == "text_delta" and block == "text":  # AM-DELTA-ROUTE, AM-DELTA-MATCH
            text = delta.get("text")
            return [text_delta(text, frame)] if isinstance(text, str) and text else []
        pending = self._calls.get(index)
        fragment = delta.get("partial_json")
        if kind != "input_json_delta" or pending is None or not isinstance(fragment, str):
            return []  # thinking, signature, citations, hosted tools: Opaque
        if pending.completed and fragment:
            # AM-BLOCK-STOP applies late deltas; a completed call cannot change
            self.fail(
                "inconsistent_tool_arguments",
                "EV-NO-DELTA-AFTER-COMPLETED: input arrived after its block stopped",
            )
            return []
        return pending.take(fragment, pending.id, pending.name, frame, self._ids) or []

    def _block_stop(self, frame: JSONObject) -> list[Event]:
        index = non_negative_int(frame.get("index"))
        if index is None:
            return []
        pending = self._calls.get(index)
        if pending is None or pending.completed:
            return []
        return self._stop(pending, frame)

    def _stop(self, pending: PendingCall, frame: JSONObject) -> list[Event]:
        """ToolCallCompleted with the input the fold settled on, or EV-ARGS-INVALID."""
        block = self._fold._blocks._blocks[pending.index].output()
        arguments = boundary_arguments(block.get("input"))
        if arguments is None:  # AM-TOOL-INVALID: the raw joined input, a string
            self.fail(
                "invalid_tool_arguments",
                "EV-ARGS-INVALID: a tool_use block's input "
                "is not a JSON object at its content_block_stop",
            )
            return []
        if pending.length and pending.blank:
            # deltas of whitespace alone: AM-TOOL-NO-DELTA kept the start's input, but
            # the deltas parse to nothing (see the module docstring)
            self.fail(
                "invalid_tool_arguments",
                "EV-ARGS-INVALID: a tool_use block's input "
                "deltas are JSON whitespace alone, which parses to no object",
            )
            return []
        return [pending.complete(arguments, frame)]

    def _message_delta(self, frame: JSONObject) -> list[Event]:
        if not isinstance(frame.get("usage"), dict):
            return []
        snapshot = self._fold.response().get("usage")  # AM-USAGE-REPLACE: cumulative
        return [usage(anthropic_usage(snapshot), frame)]  # NE-30: assigned, never added

    def _message_stop(self, frame: JSONObject) -> list[Event]:
        if not self._fold.finished:
            return []
        events: list[Event] = []
        for index in sorted(self._calls):  # EV-STARTED-COMPLETED: unstopped blocks too
            pending = self._calls[index]
            if not pending.completed:
                events += self._stop(pending, frame)
                if self.outcome is not None:
                    return events
        message = self._fold.response()
        reason = message.get("stop_reason")
        # EV-FRAME-COVER: Completed carries no opaque, and message_stop may carry data
        # (Bedrock's invocation metrics), so the frame is kept as Opaque before it
        events.append(self.opaque(frame))
        events.append(
            self.complete(
                model=message.get("model"),
                response_id=message.get("id"),
                stop_reason=reason if reason in _STOP else "other",
                opaque=message,
            )
        )
        return events


_HANDLERS: dict[str, Callable[[AnthropicMapping, JSONObject], list[Event]]] = {
    "content_block_start": AnthropicMapping._block_start,
    "content_block_delta": AnthropicMapping._block_delta,
    "content_block_stop": AnthropicMapping._block_stop,
    "message_delta": AnthropicMapping._message_delta,
    "message_stop": AnthropicMapping._message_stop,
}
"""§4.3, once a message started; every other type (ping, a second message_start, unknown
ones) produces nothing of its own and becomes Opaque (EV-OPAQUE-FALLBACK, EV-UNKNOWN)."""
