"""Import an optional SDK, or explain which extra provides it."""

from __future__ import annotations

import importlib
from types import ModuleType

from refold.errors import UsageError

__all__ = ["require"]


def require(module: str, *, extra: str) -> ModuleType:
    """Import `module`, raising a UsageError that names the `refold[extra]` to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise UsageError(
            f"the {extra} target needs the `{module}` package, which is not installed "
            f"({exc}); install it with: pip install 'refold[{extra}]'"
        ) from exc
