"""The incremental fold: OpenAI Responses events in, one `Response` out, no I/O.

`add(event)` takes a JSON object as decoded from one SSE `data:` field, `response()`
returns a new plain JSON value, `finished` exposes the lifecycle. Events are dispatched
on their `type`; a type the fold does not name (`keepalive`, `error`, anything unknown)
changes nothing. Events are folded in arrival order and `sequence_number` is never read
(RS-SEQ-ARRIVAL). `fold(events)` is the whole-list form on top.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._json import JSON, JSONObject
from ._envelope import LIFECYCLE_EVENTS, TERMINAL_EVENTS, Envelope
from ._errors import EventTypeError, NoResponseError
from ._items import Item
from ._routing import ITEM_EVENTS, Items

__all__ = ["Accumulator", "fold"]


class Accumulator:
    """Folds the events of one streamed OpenAI Response, in arrival order.

    Not thread-safe. Events are read, never mutated; nested values of an event are
    referenced until a Response is built, and every Response is a fresh deep copy.
    """

    __slots__ = ("_envelope", "_items", "_received", "_refused")

    def __init__(self) -> None:
        self._received = 0  # add() calls, refused ones included: event numbers
        self._refused = 0  # of them, not JSON objects (LIFE-RS-EMPTY: no events)
        self._envelope = Envelope()
        self._items = Items()

    def add(self, event: JSON) -> None:
        """Fold one event.

        Raises:
            EventTypeError: `event` is not a JSON object (RS-NOT-OBJECT); the fold is
                unchanged. Any JSON object is folded, whatever its fields hold
                (RS-WRONG-TYPE, RS-UNKNOWN-KEYS: each step reads only the keys it names).
        """
        number = self._received
        self._received += 1
        if not isinstance(event, dict):
            self._refused += 1
            raise EventTypeError(event, event_number=number)
        event_type = event.get("type")
        if not isinstance(event_type, str):
            return  # RS-WRONG-TYPE, RS-KEEPALIVE: a type that is none is an unknown one
        # LIFE-RS-AFTER: events after a terminal event are folded like any other
        if event_type in LIFECYCLE_EVENTS:
            self._envelope.lifecycle(event.get("response"))
        elif event_type in TERMINAL_EVENTS:
            self._envelope.terminal(event_type, event.get("response"))  # RS-TERMINAL-EVENTS
        elif event_type == "response.output_item.added":
            self._items.added(event)
        elif event_type == "response.output_item.done":
            self._items.done(event)
        elif event_type in ITEM_EVENTS:
            self._items.apply(event, ITEM_EVENTS[event_type])
        # RS-ERROR-EVENT: an `error` event finishes nothing and is never copied;
        # RS-KEEPALIVE: `keepalive` and unknown types change nothing

    @property
    def finished(self) -> bool:
        """True once a terminal event (`response.completed`, `.incomplete`, `.failed`)
        with a response object arrived (LIFE-RS-FINISHED); an `error` event, the end of
        the stream or the last item's done event never finishes the fold."""
        return self._envelope.finished

    def item_at(self, index: int) -> Item | None:
        """The item the fold holds at output_index `index` (for the events adapter)."""
        return self._items.at(index)  # pragma: no mutate (the events suites test it)

    def announced_index(self, item_id: str) -> int | None:
        """The output_index an announced item id names (RS-ROUTE), or None."""
        return self._items.index_of(item_id)  # pragma: no mutate (the events suites test it)

    def response(self) -> JSONObject:
        """Build the `Response` the events so far fold into, as a new value.

        Before a terminal event it is the snapshot (LIFE-RS-SNAPSHOT): the latest
        lifecycle response with the items streamed so far, `status` as sent.

        Raises:
            NoResponseError: no event has been folded yet (LIFE-RS-EMPTY).
        """
        if self._received == self._refused:
            raise NoResponseError(events=self._received)
        return self._envelope.result(self._items)


def fold(events: Iterable[JSON]) -> JSONObject:
    """Fold a whole list of events into the `Response` they stand for.

    Raises:
        EventTypeError: an event is not a JSON object (RS-NOT-OBJECT).
        NoResponseError: there were no events (LIFE-RS-EMPTY).
    """
    accumulator = Accumulator()
    for event in events:
        accumulator.add(event)
    return accumulator.response()
