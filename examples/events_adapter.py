"""The smallest useful in-process events adapter: the reference, declared as a target.

An events adapter turns one provider stream (OpenAI Chat chunks, Anthropic Messages events)
into provider-neutral events (`/work/shared/spec/events.md`) one frame at a time, and says
what its runtime persists. This one hands every frame to `refold.reference.events.Adapter`,
names its own provider in the Completed turn, and persists its events stripped. Copy it and
replace the calls to the reference with your runtime's normaliser:

    refold check --dialect provider-events --target examples/events_adapter.py

The harness calls `EventsAdapter()` once per stream, then `begin(dialect)`, `frame(frame)`
for each frame (a Chat frame is a chunk object or the string "[DONE]"), `end()` at the end
of the body, `persisted()`, and, for the persistence rules, `fold(events)`.
"""

from __future__ import annotations

from typing import Any

from refold.reference.events import Adapter, fold_turn, strip

PROVIDER = "refold-example"

Event = dict[str, Any]


class EventsAdapter:
    """One stream at a time; every event of a frame is returned before the next is read."""

    def __init__(self) -> None:
        self._reference: Adapter | None = None
        self._events: list[Event] = []
        self._outcome: dict[str, Any] | None = None

    def begin(self, dialect: str) -> None:
        """Start a stream of `dialect`, "openai-chat" or "anthropic-messages"."""
        self._reference = Adapter(dialect)
        self._events, self._outcome = [], None

    def frame(self, frame: Any) -> list[Event]:
        """The events of one frame (no look-ahead: EV-FRAME-ORDER)."""
        assert self._reference is not None, "begin() starts a stream"
        return self._kept(self._reference.frame(frame))

    def end(self) -> dict[str, Any]:
        """`{"outcome": "completed"}` or `{"outcome": "error", "error": {"kind", "message"}}`,
        with `"events"`: the events the end of the body produces (a Chat body ending after
        its finish reason emits its Completed here)."""
        assert self._reference is not None, "begin() starts a stream"
        ending = self._reference.end()
        events = self._kept(ending.pop("events"))
        self._outcome = ending
        return {**ending, "events": events}

    def persisted(self) -> Any:
        """Exactly what the runtime writes for the turn: no opaque, payload or response id
        (PERSIST-STRIP)."""
        return {"events": strip(self._events), "outcome": self._outcome}

    def fold(self, events: list[Event]) -> Event:
        """The runtime's fold of given events into their turn (PERSIST-PORTABLE)."""
        return fold_turn(events)

    def _kept(self, events: list[Event]) -> list[Event]:
        for event in events:
            if event["type"] == "Completed":
                event["turn"]["provider"] = PROVIDER  # EV-TURN-FIELDS: the declared one
        self._events += strip(events)
        return events


refold_target = {
    "dialect": "provider-events",
    "adapter": EventsAdapter,
    "accepts": ["openai-chat", "openai-responses", "anthropic-messages"],
    "provider": PROVIDER,
    "features": ["events", "events.turn_opaque"],
    "description": "refold.reference.events.Adapter, wrapped as an in-process target",
}
