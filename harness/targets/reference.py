"""Target `reference`: the reference fold, with the reference SSE decoder (feature `sse`).

A module of its own so that `refold.targets` stays free of httpx, which the decoders
import; it is loaded only when `--target reference` is asked for.
"""

from __future__ import annotations

from refold.reference import Accumulator

from .sdk.decoders import decode_reference

__all__ = ["refold_target"]

refold_target = {"name": "reference", "factory": Accumulator, "sse": decode_reference,
                 "description": "refold.reference.Accumulator, the spec's reference fold"}
"""The declaration `--target reference` loads."""
