"""The import rules of docs/ARCHITECTURE.md hold: imports point one way."""

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# folder -> the refold packages its modules may import
ALLOWED = {
    "reference": {"refold.reference"},
    "strategies": {"refold.reference", "refold.strategies"},
    # The `refold` command renders reports; nothing else in the harness imports them.
    "harness": {"refold", "refold.reference", "refold.strategies", "refold.reports"},
    "suites": {"refold", "refold.reference", "refold.strategies", "refold.suites"},
    "reports": {"refold.reference", "refold.reports"},
}
_PACKAGE_OF_FOLDER = {
    "reference": "refold.reference",
    "strategies": "refold.strategies",
    "harness": "refold",
    "suites": "refold.suites",
    "reports": "refold.reports",
}


def _imported_refold_packages(path: Path, folder: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            found.add(_PACKAGE_OF_FOLDER[folder])
            continue
        names = (
            [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
        for name in names:
            parts = name.split(".")
            if parts[0] != "refold":
                continue
            sub = ".".join(parts[:2])
            found.add(
                sub
                if sub
                in {"refold.reference", "refold.strategies", "refold.suites", "refold.reports"}
                else "refold"
            )
    return found


@pytest.mark.parametrize("folder", sorted(ALLOWED))
def test_each_layer_imports_only_the_layers_below_it(folder: str) -> None:
    for path in sorted((ROOT / folder).rglob("*.py")):
        imported = _imported_refold_packages(path, folder)
        assert imported <= ALLOWED[folder], (
            f"{path.relative_to(ROOT)} imports {sorted(imported - ALLOWED[folder])}, "
            f"but {folder}/ may import only {sorted(ALLOWED[folder])}"
        )


def test_the_import_linter_contracts_hold(tmp_path: Path) -> None:
    # import-linter walks the folder of its root package; installed editable, `refold`'s
    # folder is harness/ alone, so the contracts are checked on the layout `pip install .`
    # builds: one `refold` folder holding every layer.
    package = tmp_path / "refold"
    shutil.copytree(ROOT / "harness", package, ignore=shutil.ignore_patterns("node_modules"))
    for folder in ("reference", "strategies", "suites", "reports"):
        shutil.copytree(ROOT / folder, package / folder)
    run = subprocess.run(
        [
            str(Path(sys.executable).parent / "lint-imports"),
            "--no-cache",
            str(ROOT / "pyproject.toml"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert " 0 broken" in run.stdout
