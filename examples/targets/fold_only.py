"""The simplest target: a module with a `fold(chunks)` function (here, the reference's).

A fold-only target is checked on every feature except `lifecycle`, which needs the
incremental interface.
"""

from __future__ import annotations

from typing import Any

from refold.reference.chat import fold as _reference_fold


def fold(chunks: list[Any]) -> dict[str, Any]:
    """Fold a whole list of chunks."""
    return _reference_fold(chunks)
