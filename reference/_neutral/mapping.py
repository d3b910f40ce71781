"""What every dialect mapping shares: the outcome latch, the turn fold, the frame cover.

A mapping subclasses `Mapping` and implements `_frame` (one frame's events) and `_end`
(the end of the body). The base turns them into the contract's lifecycle: nothing is
normalised once the outcome is decided (EV-NOTHING-AFTER-ERROR, EV-COMPLETED-LAST), a
frame that produced nothing becomes one Opaque (EV-OPAQUE-FALLBACK, EV-FRAME-COVER), and
every event emitted is folded into the turn as it goes (EV-TEXT-CONSERVE, EV-USAGE-LAST).
"""

from __future__ import annotations

from typing import ClassVar

from .._json import JSON, JSONObject, non_blank
from .events import Event, Outcome, completed, completed_outcome, error_outcome, opaque
from .turn import TurnFold

__all__ = ["Mapping", "boundary_arguments"]

_JSON_WHITESPACE = " \t\n\r"


def boundary_arguments(value: JSON) -> JSONObject | None:
    """EV-ARGS-PARSED: a call's arguments at its completion boundary, or None if invalid.

    The dialect fold has already read the arguments (parsed object, or the raw text); an
    absent value or `""` is `{}` (EV-ARGS-EMPTY-OBJECT), anything but an object is invalid.
    """
    if value is None or value == "":
        return {}
    return value if isinstance(value, dict) else None


class Mapping:
    """One stream of one dialect, normalised frame by frame."""

    provider: ClassVar[str]
    """The adapter's declared identifier: the dialect name (EV-TURN-FIELDS)."""

    def __init__(self) -> None:
        self.outcome: Outcome | None = None
        self.turn = TurnFold()
        self._header: dict[str, JSON] = {}  # the Completed turn's fields no event carries

    def frame(self, frame: JSON) -> list[Event]:
        """The events of one frame, in the order the mapping table lists them."""
        if self.outcome is not None:
            return []  # EV-NOTHING-AFTER-ERROR, EV-COMPLETED-LAST: later frames not normalised
        events = self._frame(frame)
        if not events and frame != "[DONE]":
            # EV-OPAQUE-FALLBACK, also for a frame whose fragment is held (decided in _chat)
            events = [self.opaque(frame)]
        return self._folded(events)

    def end(self) -> list[Event]:
        """The events the end of the body produces; afterwards the outcome is decided."""
        if self.outcome is not None:
            return []
        return self._folded(self._end())

    def _folded(self, events: list[Event]) -> list[Event]:
        for event in events:
            if event["type"] == "Completed":
                # built here, once every event before it (of this frame too) is folded
                event["turn"] = self.turn.turn(provider=self.provider, **self._header)
            self.turn.add(event)
        return events

    def _frame(self, frame: JSON) -> list[Event]:
        raise NotImplementedError

    def _end(self) -> list[Event]:
        self.fail("truncated", "EV-TRUNCATED: the body ended before the stream's terminal")
        return []

    def opaque(self, frame: JSON) -> Event:
        """EV-OPAQUE-TYPE: the frame's own `type` names it; "message" when it has none."""
        name = non_blank(frame.get("type")) if isinstance(frame, dict) else None
        return opaque(name or "message", frame)

    def fail(self, kind: str, message: str) -> None:
        """Decide the outcome `error`: no Completed follows (EV-NO-COMPLETED-ON-ERROR)."""
        if self.outcome is None:
            self.outcome = error_outcome(kind, message)

    def complete(
        self, *, model: JSON, response_id: JSON, stop_reason: str, opaque: JSONObject
    ) -> Event:
        """EV-COMPLETED-LAST: the Completed event, the outcome decided `completed`."""
        self.outcome = completed_outcome()
        self._header = {
            "model": model if isinstance(model, str) else "",
            "response_id": response_id,
            "stop_reason": stop_reason,
            "opaque": opaque,
        }
        return completed({})
