"""What a mutation run mutates: the Python source of a target, located without importing it.

`refold mutate` copies this source into a scratch work dir, so the user's files are
never touched. Targets that are not Python source (exec:, http://, compiled
extensions, byte-code only) cannot be mutated, and are refused with the reason.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from fnmatch import fnmatch
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from refold.dialects import DEFAULT_DIALECT, DIALECTS, Dialect
from refold.errors import UsageError

__all__ = ["MutationSource", "locate_source", "reference_source"]

REFERENCE_PACKAGE = "refold.reference"


@dataclass(frozen=True)
class MutationSource:
    """The Python source mutmut mutates, and the `--target` the suites run against.

    `module` is the dotted name the tests import (so it is also the name mutmut gives
    the mutants), `path` the installed file or package directory it is copied from.
    `dialect` is the run's dialect (None: the target's own declaration decides) and
    `excluded` the sub-packages of `path` that are not part of it (another dialect's
    reference inside this one's package), relative to `path`.
    """

    target: str
    module: str
    path: Path
    dialect: Dialect | None = None
    excluded: tuple[str, ...] = ()
    only: tuple[str, ...] = ()
    """Globs relative to `path`: when any, only the modules they match are mutated (the
    rest is copied unmutated); () mutates every module not `excluded`."""

    def omitted(self) -> list[str]:
        """Absolute globs of the files under `path` that are not part of the source (what
        coverage omits): the `excluded` packages and, with `only`, every module it misses."""
        globs = [f"{self.path / name}/*" for name in self.excluded]
        if self.only and self.path.is_dir():
            globs += [
                str(module)
                for module in sorted(self.path.rglob("*.py"))
                if not any(fnmatch(module.relative_to(self.path).as_posix(), g) for g in self.only)
            ]
        return globs

    @property
    def is_reference(self) -> bool:
        """Whether this is one of refold's own reference folds."""
        return self.module == REFERENCE_PACKAGE or self.module.startswith(f"{REFERENCE_PACKAGE}.")

    @property
    def relative_path(self) -> Path:
        """Where the source lives inside the work dir: the module name as a path."""
        parts = self.module.split(".")
        if self.path.is_file():
            return Path(*parts[:-1], self.path.name)
        return Path(*parts)


def locate_source(target: str, dialect: Dialect | None = None) -> MutationSource:
    """The source of `target` in a run of `dialect` (None: the target's own):
    `reference` (the dialect's reference package, the default dialect's by default), or an
    importable module/package name (optionally `module:attribute`).

    Raises:
        UsageError: the target is not pure-Python source that can be copied.
    """
    if target == "reference":
        return reference_source(dialect or DIALECTS[DEFAULT_DIALECT])
    if target.startswith(("exec:", "http://", "https://")):
        raise UsageError(
            f"cannot mutate target {target!r}: it is not Python code running in "
            "this interpreter; mutation needs the Python source of an installed "
            "package (mutate it with its own language's tools)"
        )
    if target.endswith(".py") or "/" in target:
        raise UsageError(
            f"cannot mutate target {target!r}: pass the importable module name "
            "(put its folder on PYTHONPATH), not a file path"
        )
    top = target.partition(":")[0].partition(".")[0]
    return MutationSource(target, top, _package_path(top, target), dialect=dialect)


def reference_source(dialect: Dialect) -> MutationSource:
    """The reference fold of `dialect`: its package's modules (not its sub-packages: a
    `neutral` one is its mapping to neutral events, the provider-events run's), the
    kernel's when the dialect `mutates_kernel` (the layer root's own modules, without any
    other dialect's package), and its `reference_parts` elsewhere in the layer."""
    package = dialect.reference_package
    path = Path(importlib.import_module(package).__file__ or "").parent
    own = tuple(f"{path.name}/{name}" for name in reference_subpackages(path))
    if dialect.mutates_kernel:
        kernel = path.parent
        others = tuple(name for name in reference_subpackages(kernel) if name != path.name)
        return MutationSource(
            "reference", package.rpartition(".")[0], kernel, dialect=dialect, excluded=others + own
        )
    if dialect.reference_parts:
        return MutationSource(
            "reference",
            package.rpartition(".")[0],
            path.parent,
            dialect=dialect,
            excluded=own,
            only=(f"{path.name}/*", *dialect.reference_parts),
        )
    return MutationSource(
        "reference", package, path, dialect=dialect, excluded=reference_subpackages(path)
    )


def reference_subpackages(path: Path) -> tuple[str, ...]:
    """The packages directly inside the reference package at `path`, by folder name."""
    return tuple(
        sorted(child.name for child in path.iterdir() if (child / "__init__.py").is_file())
    )


def _package_path(top: str, target: str) -> Path:
    spec = importlib.util.find_spec(top)
    if spec is None:
        raise UsageError(
            f"cannot mutate target {target!r}: no module named {top!r} is "
            "installed in this interpreter"
        )
    locations = list(spec.submodule_search_locations or [])
    if locations:
        if len(locations) != 1:
            raise UsageError(
                f"cannot mutate target {target!r}: {top!r} is a namespace package "
                f"spread over {len(locations)} folders: {locations}"
            )
        return _checked_package(Path(locations[0]), target)
    if spec.origin is None or not spec.origin.endswith(".py"):
        raise UsageError(
            f"cannot mutate target {target!r}: {top!r} is not Python source "
            f"(loaded from {spec.origin}); only pure-Python code can be mutated"
        )
    return Path(spec.origin)


def _checked_package(folder: Path, target: str) -> Path:
    compiled = sorted(
        p.name for p in folder.rglob("*") if any(p.name.endswith(s) for s in EXTENSION_SUFFIXES)
    )
    if compiled:
        raise UsageError(
            f"cannot mutate target {target!r}: its package {folder} contains "
            f"compiled extension modules ({', '.join(compiled[:5])}); mutmut "
            "mutates Python source only, and a partial run would overstate the "
            "suite's strength"
        )
    if not any(folder.rglob("*.py")):
        raise UsageError(f"cannot mutate target {target!r}: {folder} holds no .py source")
    return folder
