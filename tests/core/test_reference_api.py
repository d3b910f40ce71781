"""The public API of refold.reference is exactly what `__all__` says, and stays sans-IO."""

import ast
import sys
import types
from pathlib import Path

import refold.reference

REFERENCE = Path(refold.reference.__file__).parent


def test_every_exported_name_exists_and_is_documented() -> None:
    type_aliases = {"JSON", "JSONObject", "Status", "Shape", "Impact"}
    for name in set(refold.reference.__all__) - type_aliases:
        member = getattr(refold.reference, name)
        if callable(member):
            assert member.__doc__, name


def test_public_members_are_exactly_the_exported_ones() -> None:
    # Public submodules (`refold.reference.sse`) are reached by their own import path.
    public = {
        n
        for n, v in vars(refold.reference).items()
        if not n.startswith("_") and not isinstance(v, types.ModuleType)
    }
    assert public == set(refold.reference.__all__)


def test_the_reference_imports_only_the_standard_library_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in REFERENCE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"


def test_the_reference_does_no_io() -> None:
    forbidden = {"open", "print", "input", "socket", "subprocess", "os", "pathlib", "io"}
    for path in REFERENCE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not (names | modules) & forbidden, path.name


def test_the_package_docstring_example_runs() -> None:
    import doctest

    assert doctest.testmod(refold.reference).failed == 0
