"""A regular install (`pip install .`) ships every package of every layer.

pyproject.toml lists the packages explicitly (each layer folder is mapped onto a
subpackage of `refold`), so a new sub-package that is not listed would be missing from a
non-editable install while every editable run still finds it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_folder_of_every_layer_is_listed_for_installation() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    found: set[str] = set()
    for package, folder in setuptools["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            if "node_modules" in init.parts:
                continue
            relative = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((package, *relative)))
    missing = sorted(found - listed)
    assert not missing, f"packages not listed in pyproject.toml: {missing}"
