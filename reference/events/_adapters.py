"""The reference adapter: the stream lifecycle over one source dialect's mapping.

The mappings are found in the source dialects' reference packages (`_sources`), so
`Adapter` and `normalize` never name a dialect: adding one is adding its `neutral`
subpackage. The lifecycle is the subprocess protocol's (events.md
§5): `frame` per frame, `end` at the end of the body, then `persisted`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._json import JSON, JSONObject
from .._neutral.events import Event, Outcome
from ._sources import SOURCE_DIALECTS
from ._strip import strip

__all__ = ["DIALECTS", "Adapter", "UnknownDialectError", "normalize"]

DIALECTS: tuple[str, ...] = tuple(SOURCE_DIALECTS)
"""The dialects the reference adapter normalises."""


class UnknownDialectError(ValueError):
    """`Adapter(dialect)` was given a dialect the reference has no mapping for."""

    def __init__(self, dialect: object) -> None:
        super().__init__(
            f"no reference adapter for dialect {dialect!r}; expected one of "
            f"{', '.join(DIALECTS)} (events.md §4)"
        )


class Adapter:
    """Normalises one provider stream of one dialect, one frame at a time.

    Sans-IO: frames are JSON values (for Chat, chunk objects and the string `"[DONE]"`),
    read and never mutated; like the dialect folds, the adapter references their nested
    values until the stream ends. Every event returned is a new value it does not keep.
    """

    __slots__ = ("_mapping", "_persisted")

    def __init__(self, dialect: str) -> None:
        source = SOURCE_DIALECTS.get(dialect) if isinstance(dialect, str) else None
        if source is None:
            raise UnknownDialectError(dialect)
        self._mapping = source.mapping()
        self._persisted: list[JSON] = []

    def frame(self, frame: JSON) -> list[Event]:
        """The events of one frame, all of them before the next frame is read
        (EV-FRAME-ORDER); none once the outcome is decided (EV-NOTHING-AFTER-ERROR)."""
        return self._kept(self._mapping.frame(frame))

    def end(self) -> JSONObject:
        """Record the end of the body and return the outcome with the final events:
        `{"outcome": "completed" | "error", "error"?: {"kind", "message"}, "events": [...]}`
        (a Chat body ending after its finish reason emits its Completed here, EV-CHAT-EOF)."""
        events = self._kept(self._mapping.end())
        return {**self.outcome(), "events": events}

    def outcome(self) -> Outcome:
        """The outcome once decided (`end()` always decides it), as a new value."""
        outcome = self._mapping.outcome
        if outcome is None:
            raise LookupError(
                "the outcome is decided at the stream's terminal frame or at "
                "end(); neither has happened yet"
            )
        return strip(outcome)  # type: ignore[no-any-return]

    def persisted(self) -> JSONObject:
        """What the reference runtime writes for the turn: the stripped events (the
        turn is in Completed) and the outcome (PERSIST-STRIP, PERSIST-CANARY)."""
        # strip(None) is None: an undecided outcome is persisted as null
        return {"events": strip(self._persisted), "outcome": strip(self._mapping.outcome)}

    def _kept(self, events: list[Event]) -> list[Event]:
        self._persisted += [strip(event) for event in events]
        return events


def normalize(dialect: str, frames: Iterable[JSON]) -> JSONObject:
    """Run one whole stream: `{"events": [...], "outcome": {...}, "persisted": ...}`.

    The list ends where the body ended: a Chat list without `"[DONE]"` last is a body that
    stopped there (completed if choice 0 finished, EV-CHAT-EOF; else EV-TRUNCATED).
    """
    adapter = Adapter(dialect)
    events = [event for frame in frames for event in adapter.frame(frame)]
    ending = adapter.end()
    events += ending.pop("events")
    return {"events": events, "outcome": ending, "persisted": adapter.persisted()}
