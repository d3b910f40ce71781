"""The incremental fold: Anthropic Messages events in, one `Message` out, no I/O.

`add(event)` takes a JSON object as decoded from one SSE `data:` field, `response()`
returns a new plain JSON value, `finished` and `error` expose the lifecycle. Events are
dispatched on their `type` through one table; a type it does not name changes nothing.
`fold(events)` is the whole-list form on top.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .._json import JSON, JSONObject, copy_json, non_blank, object_or_none
from ._blocks import Blocks
from ._errors import EventTypeError, NoMessageError
from ._stop import Stop
from ._usage import Usage

__all__ = ["Accumulator", "fold"]

_DEFAULTS = (("type", "message"), ("role", "assistant"))
"""AM-TYPE-ROLE: the values the docs fix, used when message_start left them blank."""


class Accumulator:
    """Folds the events of one streamed Anthropic Message, in arrival order.

    Not thread-safe. Events are read, never mutated; nested values of an event are
    referenced until a Message is built, and every Message is a fresh deep copy.
    """

    __slots__ = ("_blocks", "_error", "_message", "_received", "_stop", "_stopped", "_usage")

    def __init__(self) -> None:
        self._received = 0  # add() calls, refused ones included: event numbers
        self._message: JSONObject | None = None  # the first message_start's `message`
        self._blocks = Blocks()
        self._stop = Stop()
        self._usage = Usage()
        self._stopped = False
        self._error: JSONObject | None = None

    def add(self, event: JSON) -> None:
        """Fold one event.

        Raises:
            EventTypeError: `event` is not a JSON object (AM-ROB-NOT-OBJECT); the fold is
                unchanged. Any JSON object is folded, whatever its fields hold.
        """
        number = self._received
        self._received += 1
        if not isinstance(event, dict):
            raise EventTypeError(event, event_number=number)
        if self._error is not None or self._stopped:
            return  # AM-LIFE-ERROR: terminal; AM-LIFE-AFTER-STOP: one message per stream
        event_type = non_blank(event.get("type"))
        if event_type == "error":
            # AM-LIFE-ERROR: recorded wherever it arrives (before message_start too)
            self._error = object_or_none(event.get("error")) or {}
        elif self._message is None:
            if event_type == "message_start":
                self._start(event)
            # AM-BEFORE-START: anything else before message_start changes nothing
        else:
            handler = _HANDLERS.get(event_type or "")
            if handler is not None:  # AM-UNKNOWN-EVENT, AM-PING: the rest changes nothing
                handler(self, event)

    def _start(self, event: JSONObject) -> None:
        message = object_or_none(event.get("message"))
        if message is None:
            return  # AM-BEFORE-START: a message that is not an object starts nothing
        self._message = message  # AM-START-BASE, AM-UNKNOWN-KEYS: every key of it kept
        content = message.get("content")
        if isinstance(content, list):
            for index, block in enumerate(content):
                self._blocks.open(index, block)  # AM-START-CONTENT: indexes 0..n-1
        self._stop.start(message)
        self._usage.start(message.get("usage"))  # AM-USAGE-BASE

    def _message_delta(self, event: JSONObject) -> None:
        delta = object_or_none(event.get("delta"))
        if delta is not None:  # AM-ROB-WRONG-TYPE: a null delta is an empty one
            self._stop.delta(delta)
        self._usage.replace(event.get("usage"))  # AM-USAGE-REPLACE

    def _message_stop(self, event: JSONObject) -> None:
        self._stopped = True  # AM-LIFE-FINISHED

    def _ignore(self, event: JSONObject) -> None:
        """AM-START-ONCE, AM-BLOCK-STOP, AM-PING: events that carry nothing to fold."""

    @property
    def finished(self) -> bool:
        """True once `message_stop` arrived after a `message_start` and no `error` event
        came before it (AM-LIFE-FINISHED); a truncated stream is never finished."""
        return self._stopped

    @property
    def error(self) -> JSONObject | None:
        """The `error` object of the `error` event, `{}` when it had none, or None when no
        error event was folded (AM-LIFE-ERROR). A new value on every read."""
        return None if self._error is None else copy_json(self._error)

    def response(self) -> JSONObject:
        """Build the `Message` the events so far fold into, as a new value.

        A stream cut short (no `message_stop`, or an `error`) gives the partial Message
        (AM-LIFE-TRUNCATED, AM-LIFE-ERROR).

        Raises:
            NoMessageError: no `message_start` has been folded yet (AM-LIFE-EMPTY).
        """
        if self._message is None:
            raise NoMessageError(events=self._received)
        message: JSONObject = copy_json(self._message)  # AM-LIFE-SNAPSHOT: a fresh copy
        message["content"] = self._blocks.output()  # AM-START-BASE: in the place it was sent
        for key, default in _DEFAULTS:
            if non_blank(message.get(key)) is None:
                message[key] = default  # AM-TYPE-ROLE
        self._stop.write(message)
        usage = self._usage.output()
        if usage is None:
            message.pop("usage", None)  # AM-USAGE-ABSENT: never estimated
        else:
            message["usage"] = usage
        return message


_HANDLERS: dict[str, Callable[[Accumulator, JSONObject], None]] = {
    "message_start": Accumulator._ignore,  # AM-START-ONCE: only the first one counts
    "content_block_start": lambda fold, event: fold._blocks.start(event),  # AM-BLOCK-OPEN
    "content_block_delta": lambda fold, event: fold._blocks.delta(event),  # AM-DELTA-ROUTE
    "content_block_stop": Accumulator._ignore,  # AM-BLOCK-STOP: carries no data
    "message_delta": Accumulator._message_delta,
    "message_stop": Accumulator._message_stop,
    "ping": Accumulator._ignore,  # AM-PING
}
"""The event types the fold acts on once a message started; any other changes nothing.

Each handler reads only the fields it names, so unknown envelope keys never change the
Message (AM-UNKNOWN-KEYS)."""


def fold(events: Iterable[JSON]) -> JSONObject:
    """Fold a whole list of events into the `Message` they stand for.

    Raises:
        EventTypeError: an event is not a JSON object (AM-ROB-NOT-OBJECT).
        NoMessageError: no event was a usable `message_start` (AM-LIFE-EMPTY).
    """
    accumulator = Accumulator()
    for event in events:
        accumulator.add(event)
    return accumulator.response()
