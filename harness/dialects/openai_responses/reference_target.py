"""Target `reference` of the Responses dialect: the reference fold and its SSE item layer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from refold.reference import JSON, responses

__all__ = ["DECLARATION"]


def _decode(parts: Sequence[bytes]) -> list[JSON]:
    """The reference item layer of Responses streams: bytes to the events a fold gets."""
    return responses.decode_stream(parts)


DECLARATION: dict[str, Any] = {
    "factory": responses.Accumulator,
    "sse": _decode,
    "description": "refold.reference.responses.Accumulator, the spec's reference fold",
}
"""This dialect's part of the declaration `--target reference` loads."""
