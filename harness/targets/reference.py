"""Target `reference`: each dialect's reference fold, with its reference SSE decoder.

A target of every dialect (`dialects`): `--target reference` is the reference of the
run's dialect, the chat one by default. A module of its own so that `refold.targets`
stays free of httpx, which the chat decoders import; it is loaded only when `--target
reference` is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

from refold.reference import JSON, Accumulator, anthropic

from .sdk.decoders import decode_reference

__all__ = ["refold_target"]


def _decode_anthropic(parts: Sequence[bytes]) -> list[JSON]:
    """The reference item layer of Anthropic streams: bytes to the events a fold gets."""
    return anthropic.decode_stream(parts)


refold_target = {
    "name": "reference",
    "dialects": {
        "openai-chat": {
            "factory": Accumulator, "sse": decode_reference,
            "description": "refold.reference.Accumulator, the spec's reference fold"},
        "anthropic-messages": {
            "factory": anthropic.Accumulator, "sse": _decode_anthropic,
            "description": "refold.reference.anthropic.Accumulator, the spec's reference fold"},
    },
}
"""The declaration `--target reference` loads: one per dialect."""
