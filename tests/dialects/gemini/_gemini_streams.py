"""Helpers that build Gemini chunks for the reference tests (not a test module)."""

from __future__ import annotations

from typing import Any

from refold.reference.gemini import fold


def chunk(*parts: Any, index: int | None = None, **candidate: Any) -> dict[str, Any]:
    """One chunk with one candidate whose content holds `parts`."""
    entry: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}, **candidate}
    if index is not None:
        entry["index"] = index
    return {"candidates": [entry]}


def parts_of(chunks: list[Any], candidate: int = 0) -> list[dict[str, Any]]:
    """The folded parts of one candidate (by output position)."""
    parts: list[dict[str, Any]] = fold(chunks)["candidates"][candidate]["content"]["parts"]
    return parts
