"""Target `reference` of the chat dialect: the reference fold and its SSE decoder.

Loaded only when `--target reference` is asked for, so that the dialect stays free of
httpx, which the chat decoders import.
"""

from __future__ import annotations

from typing import Any

from refold.reference.chat import Accumulator
from refold.targets.sdk.decoders import decode_reference

__all__ = ["DECLARATION"]

DECLARATION: dict[str, Any] = {
    "factory": Accumulator,
    "sse": decode_reference,
    "description": "refold.reference.chat.Accumulator, the spec's reference fold",
}
"""This dialect's part of the declaration `--target reference` loads."""
