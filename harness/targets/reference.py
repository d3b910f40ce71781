"""Target `reference`: each dialect's reference fold, with its reference SSE decoder.

A target of every dialect (`dialects`): `--target reference` is the reference of the
run's dialect, the chat one by default. A module of its own so that `refold.targets`
stays free of httpx, which the chat decoders import; it is loaded only when `--target
reference` is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

from refold.reference import JSON, JSONObject, anthropic, events, responses
from refold.reference.chat import Accumulator

from .sdk.decoders import decode_reference

__all__ = ["ReferenceAdapter", "refold_target"]


def _decode_anthropic(parts: Sequence[bytes]) -> list[JSON]:
    """The reference item layer of Anthropic streams: bytes to the events a fold gets."""
    return anthropic.decode_stream(parts)


def _decode_responses(parts: Sequence[bytes]) -> list[JSON]:
    """The reference item layer of Responses streams: bytes to the events a fold gets."""
    return responses.decode_stream(parts)


class ReferenceAdapter:
    """The reference events adapter in the in-process adapter interface
    (`refold.targets.events`): `refold.reference.events.Adapter`, begun per stream."""

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


refold_target = {
    "name": "reference",
    "dialects": {
        "openai-chat": {
            "factory": Accumulator,
            "sse": decode_reference,
            "description": "refold.reference.chat.Accumulator, the spec's reference fold",
        },
        "anthropic-messages": {
            "factory": anthropic.Accumulator,
            "sse": _decode_anthropic,
            "description": "refold.reference.anthropic.Accumulator, the spec's reference fold",
        },
        "openai-responses": {
            "factory": responses.Accumulator,
            "sse": _decode_responses,
            "description": "refold.reference.responses.Accumulator, the spec's reference fold",
        },
        "provider-events": {
            "adapter": ReferenceAdapter,
            "accepts": list(events.DIALECTS),
            "features": list(events.FEATURES),
            "description": "refold.reference.events.Adapter, the spec's reference adapter",
        },
    },
}
"""The declaration `--target reference` loads: one per dialect."""
