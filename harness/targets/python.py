"""Python targets: build one from what a module offers, and call it safely.

Finding the module a `--target` value names is `refold.targets.discovery`.

A Python target may expose, simplest first:

    fold(chunks) -> dict                     a whole-list fold
    an accumulator class or factory          add(chunk), response(), and optionally a
                                             `finished` property and mark_done()
    refold_target                            an object or dict naming its `factory` (or
                                             `fold`), its `name`, its `dialect` (default
                                             the registry's), the `features` it claims and
                                             optionally its `sse` decoder and a
                                             `description` for reports, and the
                                             `projection` it is compared on
                                             (`refold.run.projection`); or a dict of such
                                             declarations by dialect under `dialects`,
                                             for a target of several

When a module offers several, the richest is used. Every call into the target goes
through `_call`, which turns whatever the target does wrong into a `TargetError` that
says what happened, so a broken target fails the rule under test and the run goes on.
"""

from __future__ import annotations

import inspect
import json
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from refold.reference import JSON, JSONObject
from refold.reference._json import copy_json

from ..dialects import DIALECTS, Dialect
from ..errors import TargetError, UsageError
from ..run.projection import Projection, check_places, projection_of
from .remote import Target, TargetAccumulator, check_features, declared_dialect

if TYPE_CHECKING:
    from .sdk.decoders import AnySSEDecode

__all__ = [
    "ACCUMULATOR_NAMES",
    "FILE_MODULE_PREFIX",
    "Asked",
    "PythonTarget",
    "accumulator_target",
    "fold_target",
    "from_object",
    "is_accumulator_class",
]

_ADAPTERS_DIALECT = next((name for name, one in DIALECTS.items() if one.adapters), "")
"""The dialect of a declaration that gives an `adapter` and names no dialect."""

_T = TypeVar("_T")
ACCUMULATOR_NAMES = ("Accumulator", "StreamAccumulator", "ChunkAccumulator")
FILE_MODULE_PREFIX = "refold_target_"
"""The module name a target file is imported under (only the loader sees it)."""


@dataclass
class PythonTarget:
    """A target implemented in this Python process."""

    name: str
    dialect: Dialect
    features: frozenset[str]
    description: str
    fold_function: Callable[[list[JSON]], Any] | None = None
    factory: Callable[[], Any] | None = None
    sse: AnySSEDecode | None = None
    """The target's SSE decoder (its `refold_target`'s `sse`); with it, it may claim `sse`."""
    projection: Projection | None = None
    """The places of its fold that are compared (its `refold_target`'s `projection`);
    None: the whole fold."""

    def fold(self, chunks: list[JSON]) -> JSONObject:
        """Fold `chunks` with the target's fold, or with a fresh accumulator."""
        given = copy_json(chunks)
        what = f"{self.name}: fold({self.dialect.items})"
        if self.fold_function is not None:
            result = _call(what, self.fold_function, given)
        else:
            accumulator = self.accumulator()
            for chunk in given:
                accumulator.add(chunk)
            result = accumulator.response()
        _check_unmutated(given, chunks, self.name, self.dialect)
        return _json_object(result, what)

    def accumulator(self) -> TargetAccumulator:
        """Start an incremental fold through the target's factory."""
        if self.factory is None:
            raise UsageError(
                f"target {self.name} has no accumulator, only fold({self.dialect.items})"
            )
        instance = _call(f"{self.name}: creating an accumulator", self.factory)
        return _PythonAccumulator(self.name, instance, self.dialect)

    def close(self) -> None:
        """Nothing to release for an in-process target."""


class _PythonAccumulator:
    def __init__(self, name: str, instance: Any, dialect: Dialect) -> None:
        self._name = name
        self._instance = instance
        self._dialect = dialect
        # Every chunk handed over so far, as given and as sent: a target may keep a
        # chunk and change it during a later call, not only during its own add().
        self._given: list[JSON] = []
        self._sent: list[JSON] = []

    def add(self, chunk: JSON) -> None:
        given = copy_json(chunk)
        self._given.append(given)
        self._sent.append(chunk)
        _call(f"{self._name}: add({self._dialect.item})", self._instance.add, given)
        _check_unmutated([given], [chunk], self._name, self._dialect, first=len(self._given) - 1)

    def response(self) -> JSONObject:
        result = _call(f"{self._name}: response()", self._instance.response)
        _check_unmutated(self._given, self._sent, self._name, self._dialect)
        return _json_object(result, f"{self._name}: response()")

    def finished(self) -> bool:
        value = _call(f"{self._name}: finished", lambda: _read_finished(self._instance))
        if not isinstance(value, bool):
            raise TargetError(
                f"{self._name}: finished is {type(value).__name__} {value!r}, expected a bool",
                kind="not-an-object",
            )
        return value

    def mark_done(self) -> None:
        _call(f"{self._name}: mark_done()", self._instance.mark_done)

    def error(self) -> JSONObject | None:
        value = _call(f"{self._name}: error", lambda: _read_property(self._instance, "error"))
        if value is not None:
            return _json_object(value, f"{self._name}: error")
        return None

    @property
    def raw(self) -> Any:
        """The target's own accumulator object (for error messages and debugging)."""
        return self._instance


def _read_finished(instance: Any) -> Any:
    return _read_property(instance, "finished")


def _read_property(instance: Any, name: str) -> Any:
    """A lifecycle read: a property, or a method of no arguments."""
    value = getattr(instance, name)
    return value() if callable(value) else value


def _call(what: str, function: Callable[..., _T], *args: Any) -> _T:
    try:
        return function(*args)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        frames = traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-3)
        raise TargetError(
            f"{what} raised {type(exc).__name__}: {exc}\n" + "".join(frames).rstrip(),
            kind="raised",
        ) from exc


def _json_object(result: Any, what: str) -> JSONObject:
    if not isinstance(result, dict):
        raise TargetError(
            f"{what} returned {type(result).__name__}, expected a JSON object (dict)",
            kind="not-an-object",
        )
    try:
        json.dumps(result)
    except (TypeError, ValueError) as exc:
        raise TargetError(
            f"{what} returned a dict that is not plain JSON: {exc}", kind="not-an-object"
        ) from exc
    return result


def _check_unmutated(
    given: list[JSON], original: list[JSON], name: str, dialect: Dialect, *, first: int = 0
) -> None:
    """Raise if an item the target was given differs from what was sent; `first` is the
    item number of `given[0]`."""
    for number, (after, before) in enumerate(zip(given, original, strict=True), start=first):
        if after != before:
            raise TargetError(
                f"{name} mutated {dialect.item} {number} it was given "
                f"({dialect.snapshot_rule}): "
                f"before {json.dumps(before)[:200]}, after {json.dumps(after, default=repr)[:200]}",
                kind="mutated-input",
            )


@dataclass(frozen=True)
class Asked:
    """What the run asks of a target: the features it claims for it (None: all its
    interface supports) and the dialect it is of, settled."""

    features: frozenset[str] | None
    dialect: Dialect


def from_object(
    obj: Any,
    *,
    name: str,
    features: frozenset[str] | None = None,
    dialect: Dialect | None = None,
) -> Target:
    """Build a target from a `refold_target` declaration, a class, or a function."""
    declaration = _declaration(obj)
    if declaration is not None:
        return _declared_target(_for_dialect(declaration, dialect, name), name, features, dialect)
    asked = Asked(features, declared_dialect(None, dialect, origin=f"target {name}"))
    if inspect.isclass(obj):
        if not is_accumulator_class(obj):
            raise UsageError(f"{name} is a class without add() and response()")
        return accumulator_target(obj, name, asked)
    if callable(obj):
        if _required_parameters(obj) == 0:
            return accumulator_target(obj, name, asked)
        return fold_target(obj, name, asked)
    raise UsageError(
        f"{name} is a {type(obj).__name__}, expected a class, a function "
        f"or a refold_target declaration"
    )


def _for_dialect(declaration: dict[str, Any], dialect: Dialect | None, name: str) -> dict[str, Any]:
    """The declaration for the run's dialect, of a target declaring several
    (`{"dialects": {name: declaration}}`, as target `reference` does); others as given."""
    by_dialect = declaration.get("dialects")
    if by_dialect is None:
        return declaration
    if not isinstance(by_dialect, dict) or not by_dialect:
        raise UsageError(
            f"refold_target of {name}: `dialects` is {type(by_dialect).__name__},"
            f" expected a dict of declarations by dialect name"
        )
    wanted = dialect.name if dialect is not None else next(iter(by_dialect))
    if wanted not in by_dialect:
        raise UsageError(
            f"target {name} folds {', '.join(by_dialect)} streams, not {wanted}: "
            f"check it with --dialect {next(iter(by_dialect))}"
        )
    return {**declaration, **by_dialect[wanted], "dialect": wanted, "dialects": None}


def _declared_target(
    declaration: dict[str, Any], name: str, features: frozenset[str] | None, dialect: Dialect | None
) -> Target:
    projection = projection_of(declaration.get("projection"), origin=f"refold_target of {name}")
    if declaration.get("adapter") is not None:
        events = declared_dialect(
            declaration.get("dialect") or _ADAPTERS_DIALECT,
            dialect,
            origin=f"target {declaration.get('name') or name}",
        )
        check_places(events, projection, origin=f"refold_target of {name}")
        if events.adapter_kind is None:
            raise UsageError(
                f"target {declaration.get('name') or name} declares an `adapter`, an events "
                f"adapter, but {events.name} is a dialect of folds: declare a `factory` or "
                f"`fold`, or the dialect of its adapters ({_ADAPTERS_DIALECT})"
            )
        adapter: Target = events.adapter_kind.python_target(declaration, name, features)
        return adapter
    claimed = declaration.get("features")
    target_name = declaration.get("name") or name
    if features is None and claimed is not None:
        features = frozenset(claimed)
    asked = Asked(
        features,
        declared_dialect(declaration.get("dialect"), dialect, origin=f"target {target_name}"),
    )
    factory, fold_function = declaration.get("factory"), declaration.get("fold")
    sse = _sse_decoder(declaration.get("sse"), name)
    check_places(asked.dialect, projection, origin=f"refold_target of {name}")
    # Reports name what was checked: an SDK adapter says which SDK version it folds with.
    described = declaration.get("description")
    description = None if described is None else str(described)
    if factory is not None:
        target = accumulator_target(factory, target_name, asked, sse=sse, description=description)
    elif fold_function is not None:
        target = fold_target(fold_function, target_name, asked, sse=sse, description=description)
    else:
        raise UsageError(f"refold_target of {name} names neither a factory nor a fold")
    target.projection = projection
    return target


_DECLARED = (
    "name",
    "dialect",
    "dialects",
    "factory",
    "fold",
    "features",
    "sse",
    "description",
    "adapter",
    "accepts",
    "provider",
    "projection",
)


def _declaration(obj: Any) -> dict[str, Any] | None:
    if isinstance(obj, dict):
        return obj
    if any(
        hasattr(obj, key) for key in ("factory", "fold", "features", "dialects", "adapter")
    ) and (not callable(obj)):
        return {key: getattr(obj, key, None) for key in _DECLARED}
    return None


def _sse_decoder(value: Any, name: str) -> AnySSEDecode | None:
    if value is None or callable(value):
        decoder: AnySSEDecode | None = value
        return decoder
    raise UsageError(
        f"refold_target of {name}: `sse` is a {type(value).__name__}, expected "
        f"a decoder function decode(parts) -> DecodedStream "
        f"(refold.targets.sdk.decoders), or -> a list of the stream's items for a "
        f"dialect whose wire rules are about its items"
    )


def is_accumulator_class(cls: type) -> bool:
    return callable(getattr(cls, "add", None)) and callable(getattr(cls, "response", None))


def _required_parameters(function: Callable[..., Any]) -> int:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return 1
    return sum(
        p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        for p in parameters
    )


def accumulator_target(
    factory: Callable[[], Any],
    name: str,
    asked: Asked,
    *,
    sse: AnySSEDecode | None = None,
    description: str | None = None,
) -> PythonTarget:
    """The richest form: `fold` also goes through a fresh accumulator.

    One accumulator is built up front to see what its instances offer: `finished` may be
    set in `__init__`, and a factory function says nothing about what it returns. It
    supports `lifecycle` when it has every read and call of its dialect's lifecycle.
    """
    sample = _probe(factory, name, asked.dialect)
    dialect = asked.dialect
    lifecycle = all(hasattr(sample, read) for read in dialect.lifecycle_reads) and all(
        callable(getattr(sample, call, None)) for call in dialect.lifecycle_calls
    )
    supported = dialect.fold_features | _sse_features(sse) | ({"lifecycle"} if lifecycle else set())
    origin = (
        f"target {name}"
        if lifecycle
        else (f"target {name} (an accumulator without {_lifecycle_shown(dialect)})")
    )
    claimed = check_features(
        asked.features if asked.features is not None else supported,
        supported=supported,
        origin=origin,
        dialect=dialect,
    )
    return PythonTarget(
        name=name,
        dialect=dialect,
        features=claimed,
        description=description or _describe(factory),
        factory=factory,
        sse=sse,
    )


def _lifecycle_shown(dialect: Dialect) -> str:
    """The lifecycle's reads as `name`, its calls as `name()`."""
    return " and ".join(
        [
            *(f"`{read}`" for read in dialect.lifecycle_reads),
            *(f"{call}()" for call in dialect.lifecycle_calls),
        ]
    )


def _sse_features(sse: AnySSEDecode | None) -> frozenset[str]:
    """A decoder is what makes feature `sse` checkable."""
    return frozenset({"sse"}) if sse is not None else frozenset()


def _probe(factory: Callable[[], Any], name: str, dialect: Dialect) -> Any:
    try:
        sample = factory()
    except Exception as exc:
        raise UsageError(
            f"target {name}: creating an accumulator with {_describe(factory)}() "
            f"raised {type(exc).__name__}: {exc}"
        ) from exc
    missing = [m for m in ("add", "response") if not callable(getattr(sample, m, None))]
    if missing:
        raise UsageError(
            f"target {name}: {_describe(factory)}() returned a {type(sample).__name__} "
            f"without {' and '.join(f'{m}()' for m in missing)}; expected an accumulator "
            f"with add({dialect.item}) and response(), optionally "
            f"{_lifecycle_shown(dialect)}. It has: {_members(sample)}"
        )
    return sample


def _members(obj: Any) -> str:
    names = [n for n in dir(obj) if not n.startswith("_")]
    return ", ".join(names) or "no public attributes"


def fold_target(
    function: Callable[[list[JSON]], Any],
    name: str,
    asked: Asked,
    *,
    sse: AnySSEDecode | None = None,
    description: str | None = None,
) -> PythonTarget:
    origin = f"target {name} (fold-only)"
    supported = asked.dialect.fold_features | _sse_features(sse)
    claimed = check_features(
        asked.features if asked.features is not None else supported,
        supported=supported,
        origin=origin,
        dialect=asked.dialect,
    )
    return PythonTarget(
        name=name,
        dialect=asked.dialect,
        features=claimed,
        description=description or _describe(function),
        fold_function=function,
        sse=sse,
    )


def _describe(obj: Any) -> str:
    module = getattr(obj, "__module__", "?")
    qualname = getattr(obj, "__qualname__", type(obj).__name__)
    loaded_from = getattr(sys.modules.get(module), "__file__", None)
    if str(module).startswith(FILE_MODULE_PREFIX) and loaded_from:
        # A target file: its path (from the current folder when inside it), not the name
        # the loader gave its module.
        path = Path(loaded_from)
        shown = path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
        return f"{shown}: {qualname}"
    return f"{module}.{qualname}"
