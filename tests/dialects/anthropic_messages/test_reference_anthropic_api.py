"""The public API of refold.reference.anthropic is what `__all__` says, and stays sans-IO."""

from __future__ import annotations

import ast
import doctest
import sys
import types
from pathlib import Path

import refold.reference
import refold.reference.anthropic as anthropic

PACKAGE = Path(anthropic.__file__).parent


def test_every_exported_name_exists_and_is_documented() -> None:
    for name in anthropic.__all__:
        member = getattr(anthropic, name)
        if callable(member):
            assert member.__doc__, name


def test_public_members_are_exactly_the_exported_ones() -> None:
    public = {
        n
        for n, v in vars(anthropic).items()
        if not n.startswith("_") and not isinstance(v, types.ModuleType)
    }
    assert public == set(anthropic.__all__)


def test_the_chat_names_are_unchanged() -> None:
    assert refold.reference.chat.Accumulator is not anthropic.Accumulator
    assert refold.reference.chat.fold.__module__ == "refold.reference.chat._accumulator"
    assert "AM-PING" not in refold.reference.chat.RULES


def test_the_dialect_imports_only_the_standard_library_and_the_reference() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            assert all(name.split(".")[0] in allowed for name in names), path.name


def test_the_dialect_does_no_io() -> None:
    forbidden = {"open", "print", "input", "socket", "subprocess", "os", "pathlib", "io"}
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not (names | modules) & forbidden, path.name


def test_the_package_docstring_example_runs() -> None:
    assert doctest.testmod(anthropic).failed == 0
