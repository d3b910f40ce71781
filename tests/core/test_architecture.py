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


# A dialect is a place: its packages, one per layer. Outside them and the registry, no module
# names a dialect, so adding one touches nothing else. The places are read from the registry
# (a dialect's reference and suites packages) and from the import contracts of pyproject.toml,
# which list every dialect's packages.
def _dialect_folders() -> list[Path]:
    import tomllib

    from refold.dialects import DIALECTS

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
    listed = {
        module
        for contract in contracts["contracts"]
        for key in ("modules", "forbidden_modules")
        for module in contract.get(key, ())
    }
    listed |= {d.reference_package for d in DIALECTS.values()}
    prefixes = {
        "refold.reference.": "reference/",
        "refold.strategies.": "strategies/",
        "refold.dialects.": "harness/dialects/",
    }
    folders = [
        ROOT / (folder + module.removeprefix(prefix).replace(".", "/"))
        for module in listed
        for prefix, folder in prefixes.items()
        if module.startswith(prefix)
    ]
    return folders + [ROOT / "suites" / d.suites for d in DIALECTS.values()]


def _literals(path: Path) -> list[tuple[int, str]]:
    if path.suffix == ".js":
        return [(n, line) for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # the record format's version 1 named no dialect: a record without one is the chat
    # dialect's, a fact of the format the kernel keeps (refold.reference.UNNAMED_DIALECT)
    legacy = {
        id(constant)
        for node in ast.walk(tree)
        if isinstance(node, ast.AnnAssign | ast.Assign)
        and "UNNAMED_DIALECT" in ast.unparse(node).split("=")[0]
        for constant in ast.walk(node)
    }
    # a string standing alone is documentation (a docstring's examples), not a value
    prose = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in legacy | prose
    ]


def test_no_module_outside_a_dialects_packages_names_a_dialect() -> None:
    from refold.dialects import DIALECTS

    folders = _dialect_folders()
    assert all(folder.is_dir() for folder in folders), [f for f in folders if not f.is_dir()]
    registry = ROOT / "harness" / "dialects" / "__init__.py"
    found = []
    for top in ("harness", "reference", "strategies", "suites", "reports"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in {".py", ".js"} or "node_modules" in path.parts:
                continue
            if path == registry or any(path.is_relative_to(f) for f in folders):
                continue
            found += [
                f"{path.relative_to(ROOT)}:{line}: {name}"
                for line, text in _literals(path)
                for name in DIALECTS
                if name in text
            ]
    assert found == []
