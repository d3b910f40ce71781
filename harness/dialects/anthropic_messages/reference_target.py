"""Target `reference` of the Anthropic dialect: the reference fold and its SSE item layer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from refold.reference import JSON, anthropic

__all__ = ["DECLARATION"]


def _decode(parts: Sequence[bytes]) -> list[JSON]:
    """The reference item layer of Anthropic streams: bytes to the events a fold gets."""
    return anthropic.decode_stream(parts)


DECLARATION: dict[str, Any] = {
    "factory": anthropic.Accumulator,
    "sse": _decode,
    "description": "refold.reference.anthropic.Accumulator, the spec's reference fold",
}
"""This dialect's part of the declaration `--target reference` loads."""
