"""Target `reference` of the events contract: the reference events adapter."""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject, events

__all__ = ["DECLARATION", "ReferenceAdapter"]


class ReferenceAdapter:
    """The reference events adapter in the in-process adapter interface
    (`refold.dialects.provider_events.adapters.python`): `refold.reference.events.Adapter`,
    begun per stream."""

    def __init__(self) -> None:
        self._adapter: events.Adapter | None = None

    def begin(self, dialect: str) -> None:
        """Start normalising a stream of `dialect`."""
        self._adapter = events.Adapter(dialect)

    def frame(self, frame: JSON) -> list[JSON]:
        """The events of one frame."""
        return list(self._begun().frame(frame))

    def end(self) -> JSONObject:
        """The outcome, with the events emitted at the end of the body."""
        return self._begun().end()

    def persisted(self) -> JSONObject:
        """What the reference runtime persists for the turn."""
        return self._begun().persisted()

    def fold(self, given: list[JSON]) -> JSONObject:
        """The reference fold of events into their turn."""
        return events.fold_turn(given)

    def _begun(self) -> events.Adapter:
        if self._adapter is None:
            raise RuntimeError("begin(dialect) was not called")
        return self._adapter


DECLARATION: dict[str, Any] = {
    "adapter": ReferenceAdapter,
    "accepts": list(events.DIALECTS),
    "features": list(events.FEATURES),
    "description": "refold.reference.events.Adapter, the spec's reference adapter",
}
"""This dialect's part of the declaration `--target reference` loads."""
