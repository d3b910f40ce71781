"""A correct in-process events adapter, the base every broken events adapter of this folder
subclasses.

It wraps `refold.reference.events.Adapter` (events.md §4) into the in-process interface of
the `provider-events` dialect (`begin`, `frame`, `end`, `persisted`): the reference decides
every event, this class only routes them through a few short steps, so that a broken example
is this adapter with one step overridden, the one its defect lives in:

- `normalised(events, frame)`: the events of one frame (`frame` is None at the end of the
  body), as the runtime hands them on;
- `completed(event)`: the Completed event, its turn the provider's final object;
- `end()`: the end of the body and the stream's outcome;
- `persisted()`: what the runtime writes for the turn.

A frame whose events an override removed becomes one Opaque, as the reference does for a
frame that produces nothing (EV-OPAQUE-FALLBACK), so that an override breaks only its own
rules. Checked like any events target:
`refold check --dialect provider-events --target examples/broken/events/_base_adapter.py`.
"""

from __future__ import annotations

import copy
from typing import Any

from refold.reference.events import Adapter as ReferenceAdapter
from refold.reference.events import strip

ACCEPTS = ["openai-chat", "anthropic-messages"]
PROVIDER = "refold-broken-events"

Event = dict[str, Any]


def opaque_of(dialect: str, frame: Any) -> Event:
    """The Opaque of a frame: its `type` names it, Chat lines are "message" (EV-OPAQUE-TYPE)."""
    name = frame.get("type") if isinstance(frame, dict) else None
    if dialect == "openai-chat" or not isinstance(name, str) or not name.strip():
        name = "message"
    return {"type": "Opaque", "event_type": name, "payload": copy.deepcopy(frame)}


def _choice_index(entry: dict[str, Any]) -> Any:
    index = entry.get("index")
    valid = isinstance(index, int | float) and not isinstance(index, bool) and index >= 0
    return index if valid else 0  # no valid index is choice 0, as the reference reads it


def choice_zero_delta(frame: Any) -> dict[str, Any]:
    """The `delta` of a Chat chunk's first choice-0 entry (an empty object if none)."""
    choices = frame.get("choices") if isinstance(frame, dict) else None
    for entry in choices if isinstance(choices, list) else []:
        if isinstance(entry, dict) and _choice_index(entry) == 0:
            delta = entry.get("delta")
            return delta if isinstance(delta, dict) else {}
    return {}


class Adapter:
    """One stream at a time: `begin`, `frame` per frame, `end`, then `persisted`."""

    def __init__(self) -> None:
        self.dialect = ""
        self.reference: ReferenceAdapter | None = None
        self.emitted: list[Event] = []
        self.frames: list[Any] = []
        self.outcome: dict[str, Any] | None = None
        self.state: dict[str, Any] = {}  # what an override remembers within one stream

    def begin(self, dialect: str) -> None:
        """Start a stream of `dialect` (one of `ACCEPTS`)."""
        if dialect not in ACCEPTS:
            raise ValueError(f"this adapter normalises {', '.join(ACCEPTS)}, not {dialect!r}")
        self.dialect = dialect
        self.reference = ReferenceAdapter(dialect)
        self.emitted, self.frames, self.outcome, self.state = [], [], None, {}

    def frame(self, frame: Any) -> list[Event]:
        """The events of one frame, all returned before the next frame is read."""
        assert self.reference is not None, "begin() starts a stream"
        self.frames.append(frame)
        found = self.reference.frame(frame)
        # a runtime stops handing events on once the stream failed (EV-NOTHING-AFTER-ERROR)
        events = found if self.failed() else self.normalised(found, frame)
        if found and not events and frame != "[DONE]":
            events = [opaque_of(self.dialect, frame)]  # EV-FRAME-COVER
        return self.emit(events)

    def normalised(self, events: list[Event], frame: Any) -> list[Event]:
        """The events the runtime hands on for one frame: the reference's."""
        return events

    def failed(self) -> bool:
        """Whether the reference decided the outcome `error` (at this frame or before)."""
        assert self.reference is not None, "begin() starts a stream"
        try:
            return bool(self.reference.outcome()["outcome"] == "error")
        except LookupError:
            return False

    def end(self) -> dict[str, Any]:
        """The end of the body: `{"outcome", "error"?, "events"}`."""
        assert self.reference is not None, "begin() starts a stream"
        ending = self.reference.end()
        events = self.emit(self.normalised(ending.pop("events"), None))
        self.outcome = ending
        return {**ending, "events": events}

    def completed(self, event: Event) -> Event:
        """The Completed event: the reference's turn, with this runtime's provider."""
        event["turn"]["provider"] = PROVIDER
        return event

    def emit(self, events: list[Event]) -> list[Event]:
        out = [self.completed(e) if e.get("type") == "Completed" else e for e in events]
        self.emitted += copy.deepcopy(out)
        return out

    def persisted(self) -> Any:
        """What the runtime writes for the turn: its events and outcome, stripped (§3)."""
        return {"events": strip(self.emitted), "outcome": strip(self.outcome)}


refold_target = {
    "dialect": "provider-events",
    "adapter": Adapter,
    "accepts": ACCEPTS,
    "provider": PROVIDER,
    "features": ["events"],
    "description": "the reference events adapter, wrapped; the base of the broken adapters",
}
