"""Where the installed layers live on disk, found without importing their code.

The harness collects the suites as files (pytest imports them, not the harness), so it
needs their folder, not their module: `importlib.util.find_spec` gives it without
importing `refold.suites`, which keeps the import rule of docs/ARCHITECTURE.md intact.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

__all__ = ["package_dir", "suites_dir"]


def package_dir(name: str) -> Path:
    """The folder of an installed package, without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(f"package {name} is not installed")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def suites_dir() -> Path:
    """The folder of the installed conformance suites (`refold.suites`)."""
    return package_dir("refold.suites")
