"""Import an optional SDK, or explain which extra provides it."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from refold.errors import UsageError

__all__ = ["quiet", "require"]


def require(module: str, *, extra: str) -> ModuleType:
    """Import `module`, raising a UsageError that names the `refold[extra]` to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise UsageError(
            f"the {extra} target needs the `{module}` package, which is not installed "
            f"({exc}); install it with: pip install 'refold[{extra}]'"
        ) from exc


@contextmanager
def quiet() -> Iterator[None]:
    """Silence the SDK's warnings (pydantic serializer warnings on off-type fields): a
    warning is not what the user of the SDK sees as the result, so it must not turn into
    a failure under pytest's `filterwarnings = error`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
