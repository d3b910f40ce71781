"""Target `reference`: each dialect's reference fold, with its reference SSE decoder.

A target of every dialect (`dialects`): `--target reference` is the reference of the
run's dialect, the default dialect's by default. Each dialect names its part of the
declaration (`Dialect.reference_target`, `module:attribute`), imported only when `--target
reference` is asked for (the chat one's decoders import httpx).
"""

from __future__ import annotations

from ..dialects import DIALECTS
from .loading import resolved

__all__ = ["refold_target"]


refold_target = {
    "name": "reference",
    "dialects": {
        name: resolved(one.reference_target)
        for name, one in DIALECTS.items()
        if one.reference_target
    },
}
"""The declaration `--target reference` loads: one per dialect."""
