"""Target `reference` of the Gemini dialect: the reference fold and its wire decoders."""

from __future__ import annotations

from typing import Any

from refold.reference import gemini

from .framing import decode_body

__all__ = ["DECLARATION"]

DECLARATION: dict[str, Any] = {
    "factory": gemini.Accumulator,
    "sse": decode_body,
    "description": f"{gemini.__name__}.Accumulator, the spec's reference fold",
}
"""This dialect's part of the declaration `--target reference` loads (the `sse` decoder
reads either framing of the body, `refold.dialects.gemini.framing`)."""
