"""How the dialects' packages read a JSON value they rely on, the way every reference
fold reads it (their departures, policies and shapes share it; it names no dialect)."""

from __future__ import annotations

__all__ = ["index_of"]


def index_of(value: object) -> int | None:
    """A non-negative JSON integer (1.0 counts, true does not), else None: an index as a
    reference fold reads one."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None
