"""A MkDocs hook: the `refold` package as griffe can read it, for the API reference.

The repository keeps one folder per layer and installs them as one package through
setuptools' `package-dir` (`refold` is `harness/`, `refold.reference` is `reference/`, ...,
pyproject.toml). An editable install resolves that mapping with an import hook that griffe,
which mkdocstrings uses to read the sources without importing them, does not follow: it
finds `refold.run.checks` in `harness/` but not `refold.reference`. So before the build this
hook lays the package out as an installed wheel would, as symbolic links into the checkout
in a temporary folder, and puts that folder first on the search path. Nothing is copied:
the pages document the checkout's own files.
"""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _package_dirs() -> dict[str, Path]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        setuptools = tomllib.load(file)["tool"]["setuptools"]
    return {name: ROOT / folder for name, folder in setuptools["package-dir"].items()}


def _lay_out(site: Path) -> None:
    # Shorter names first, so that `refold/` exists before `refold/reference` is linked in.
    for name, folder in sorted(_package_dirs().items(), key=lambda item: item[0].count(".")):
        package = site.joinpath(*name.split("."))
        package.mkdir(parents=True, exist_ok=True)
        for entry in folder.iterdir():
            if entry.name != "__pycache__" and not (package / entry.name).exists():
                (package / entry.name).symlink_to(entry)


def on_startup(**_: Any) -> None:
    site = Path(tempfile.mkdtemp(prefix="refold-docs-"))
    atexit.register(shutil.rmtree, site, ignore_errors=True)
    _lay_out(site)
    sys.path.insert(0, str(site))
