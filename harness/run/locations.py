"""Where the installed layers live on disk, found without importing their code.

The harness collects the suites as files (pytest imports them, not the harness), so it
needs their folder, not their module: `importlib.util.find_spec` gives it without
importing `refold.suites`, which keeps the import rule of docs/ARCHITECTURE.md intact.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ..dialects import DIALECTS, Dialect

__all__ = ["hosts_suites_of", "is_generic_suite", "package_dir", "suites_dialect", "suites_dir"]


def package_dir(name: str) -> Path:
    """The folder of an installed package, without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(f"package {name} is not installed")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def suites_dir() -> Path:
    """The folder of the installed conformance suites (`refold.suites`)."""
    return package_dir("refold.suites")


def suites_dialect(path: Path) -> Dialect | None:
    """The dialect whose suites `path` is (a file or folder of the installed suites), or
    None for anything else: a dialect's suites are a sub-package of `refold.suites`
    (`Dialect.suites`); the top-level modules and helpers are no dialect's. A folder in
    a dialect's suites named as another dialect's suites holds that other dialect's
    suites written in this one's streams (`gemini/events/`: the provider-neutral events
    suites over Gemini streams), and is that other dialect's."""
    try:
        relative = path.resolve().relative_to(suites_dir())
    except (LookupError, ValueError):
        return None
    if not relative.parts or relative.name == "__init__.py":
        return None
    folders = relative.parts if path.is_dir() else relative.parts[:-1]
    if not folders or folders[0].startswith(("_", ".")):
        return None  # private helpers and caches belong to no dialect
    owner = _with_suites(folders[0])
    guest = _with_suites(folders[1]) if owner is not None and len(folders) > 1 else None
    return guest or owner


def hosts_suites_of(path: Path, dialect: Dialect) -> bool:
    """Whether the folder `path`, another dialect's suites, holds suites of `dialect`
    written in that dialect's streams (its sub-folder named as `dialect.suites`)."""
    return path.is_dir() and (path / dialect.suites).is_dir()


def _with_suites(folder: str) -> Dialect | None:
    return next((d for d in DIALECTS.values() if d.suites == folder), None)


def is_generic_suite(path: Path) -> bool:
    """Whether `path` is a generic suite: a top-level `test_*.py` module of the installed
    suites, whose tests every dialect with a suite kit (`Dialect.kit`) parametrizes."""
    try:
        relative = path.resolve().relative_to(suites_dir())
    except (LookupError, ValueError):
        return False
    return len(relative.parts) == 1 and relative.name.startswith("test_") and path.is_file()
