"""A dialect's part of target `reference` (`refold.targets.reference`), built from its
reference package: the package's `Accumulator` as the fold and its `decode_stream` as
the `sse` decoder (the reference item layer: bytes to the items a fold gets)."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from refold.reference import JSON

__all__ = ["reference_part"]


def reference_part(package: ModuleType) -> dict[str, Any]:
    """The declaration of `package`'s reference fold and item layer, for a reference
    package that has an `Accumulator` and a `decode_stream` (`refold.reference.<x>`)."""

    def decode(parts: Sequence[bytes]) -> list[JSON]:
        items: list[JSON] = package.decode_stream(parts)
        return items

    return {
        "factory": package.Accumulator,
        "sse": decode,
        "description": f"{package.__name__}.Accumulator, the spec's reference fold",
    }
