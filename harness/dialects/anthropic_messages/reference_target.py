"""Target `reference` of the Anthropic dialect: the reference fold and its SSE item layer."""

from __future__ import annotations

from typing import Any

from refold.reference import anthropic
from refold.targets.reference_part import reference_part

__all__ = ["DECLARATION"]

DECLARATION: dict[str, Any] = reference_part(anthropic)
"""This dialect's part of the declaration `--target reference` loads."""
