"""Python discovery: which module a `--target` value names, and what target it offers.

`import_python_target` imports `module`, `module:attribute` or `path/to/file.py` (whose
folder goes last on `sys.path`, so the file can import the modules next to it);
`from_module` takes the richest interface the module offers (a `refold_target`
declaration, an accumulator class, a `fold` function) and hands it to
`refold.targets.python`, which builds and guards the target.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from ..dialects import Dialect
from ..errors import UsageError
from .python import (
    ACCUMULATOR_NAMES,
    FILE_MODULE_PREFIX,
    Asked,
    accumulator_target,
    fold_target,
    from_object,
    is_accumulator_class,
)
from .remote import Target, declared_dialect

__all__ = ["from_module", "import_python_target"]


def import_python_target(
    spec: str, *, features: frozenset[str] | None = None, dialect: Dialect | None = None
) -> Target:
    """Load `module`, `module:attribute` or `path/to/file.py` as a Python target of
    `dialect` (None: the one it declares, else the default), claiming `features`."""
    module_name, _, attribute = spec.partition(":")
    module = _load_module(module_name)
    if not attribute:
        return from_module(module, name=spec, features=features, dialect=dialect)
    try:
        obj = getattr(module, attribute)
    except AttributeError:
        raise UsageError(f"module {module.__name__} has no attribute {attribute!r}") from None
    return from_object(obj, name=spec, features=features, dialect=dialect)


def _load_module(name: str) -> ModuleType:
    if name.endswith(".py") or "/" in name or "\\" in name:
        path = Path(name).resolve()
        if not path.is_file():
            raise UsageError(f"target file {name} does not exist")
        spec = importlib.util.spec_from_file_location(f"{FILE_MODULE_PREFIX}{path.stem}", path)
        if spec is None or spec.loader is None:
            raise UsageError(f"cannot import {name} as a Python file")
        module = importlib.util.module_from_spec(spec)
        _importable_from(path.parent)
        sys.modules[spec.name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[spec.name]
            raise UsageError(
                f"importing target file {name} raised {type(exc).__name__}: {exc}"
            ) from exc
        return module
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        from .forms import forms_sentence  # the table of forms imports this module

        raise UsageError(
            f"cannot import target {name!r}: {exc}. Expected {forms_sentence()}"
        ) from exc
    except Exception as exc:
        raise UsageError(
            f"importing target module {name!r} raised {type(exc).__name__}: {exc}"
        ) from exc


def _importable_from(folder: Path) -> None:
    """Let a target file import the modules next to it, as `python file.py` can.

    The folder goes last on `sys.path`, not first as `python file.py` puts it: the
    target runs inside the harness, and a sibling named like a module the harness or
    its dependencies import later (`types.py`, `test.py`) must not replace it.
    """
    if str(folder) not in sys.path:
        sys.path.append(str(folder))


def from_module(
    module: ModuleType,
    *,
    name: str,
    features: frozenset[str] | None = None,
    dialect: Dialect | None = None,
) -> Target:
    """Build a target from the richest interface a module offers."""
    declared = getattr(module, "refold_target", None)
    if declared is not None:
        return from_object(declared, name=name, features=features, dialect=dialect)
    asked = Asked(features, declared_dialect(None, dialect, origin=f"target {name}"))
    for attribute in ACCUMULATOR_NAMES:
        candidate = getattr(module, attribute, None)
        if inspect.isclass(candidate) and is_accumulator_class(candidate):
            return accumulator_target(candidate, name, asked)
    fold_function = getattr(module, "fold", None)
    if callable(fold_function):
        return fold_target(fold_function, name, asked)
    raise UsageError(
        f"module {module.__name__} offers no target; expected one of: a `refold_target` "
        f"object, an accumulator class named {' or '.join(ACCUMULATOR_NAMES)} with add() "
        f"and response(), or a fold({asked.dialect.items}) function. It defines: "
        f"{_inventory(module)}"
    )


def _inventory(module: ModuleType) -> str:
    """What a module offers, described the way the target forms are."""
    found: list[str] = []
    for attribute, value in sorted(vars(module).items()):
        if attribute.startswith("_") or inspect.ismodule(value):
            continue
        if inspect.isclass(value):
            methods = [n for n in vars(value) if not n.startswith("_")]
            found.append(f"class {attribute} (methods: {', '.join(methods) or 'none'})")
        elif callable(value):
            found.append(f"function {attribute}{_signature(value)}")
        else:
            found.append(f"{type(value).__name__} {attribute}")
    return "; ".join(found) or "nothing public"


def _signature(function: Callable[..., Any]) -> str:
    try:
        return str(inspect.signature(function))
    except (TypeError, ValueError):
        return "(...)"
