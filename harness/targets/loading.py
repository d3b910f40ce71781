"""Turn a `--target` value into a Target (the forms: `refold.targets.forms`)."""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from ..dialects import DIALECTS, Dialect
from ..errors import UsageError
from .remote import DEFAULT_MAX_REPLY, Target
from .sdk.nodejs import node_command

__all__ = [
    "BUILTIN_EVENTS_TARGETS",
    "BUILTIN_TARGETS",
    "ENTRY_POINT_GROUP",
    "load_target",
    "registered",
    "resolved",
]

ENTRY_POINT_GROUP = "refold.targets"

BUILTIN_TARGETS: dict[str, str] = {
    "reference": "refold.targets.reference:refold_target",
    # Each dialect's SDK targets (`Dialect.sdk_targets`).
    **{name: spec for one in DIALECTS.values() for name, spec in one.sdk_targets.items()},
    # Each dialect's JavaScript SDKs (`Dialect.node_targets`), run as
    # `exec:node <file of refold/targets/sdk/node/>`; an events adapter's are apart.
    **{
        name: f"exec:{node_command(name)}"
        for one in DIALECTS.values()
        if not one.adapters
        for name in one.node_targets
    },
}
"""Built-in target names and the Python object (or, for a Node.js SDK, the `exec:`
command) each stands for."""

BUILTIN_EVENTS_TARGETS: dict[str, str] = {
    name: f"exec:{node_command(name)}"
    for one in DIALECTS.values()
    if one.adapters
    for name in one.node_targets
}
"""Built-in events targets (events.md §5, refold-events/1 over `exec:`) and their command."""


def load_target(
    spec: str,
    *,
    features: frozenset[str] | None = None,
    timeout: float = 5.0,
    isolated: bool = False,
    max_reply: int = DEFAULT_MAX_REPLY,
    dialect: Dialect | None = None,
) -> Target:
    """Resolve `spec` to a target, claiming `features` (None: all its interface supports).

    The target is of `dialect` (None: the one it declares, else the default); one that
    declares another is refused, and `reference` is the reference of `dialect`.

    A Python target is loaded into this process, or with `isolated` into a worker
    process of its own (`refold.targets.isolation`, what the plugin does unless
    `--in-process`).
    `timeout` is the deadline of every call, `max_reply` the largest reply in bytes, for
    every target out of this process.

    Raises:
        UsageError: the target cannot be found or its feature claim is invalid.
    """
    from .forms import FORMS, TargetOptions  # the table's loaders use this module

    form = next(form for form in FORMS if form.matches(spec))
    if isolated and form.python:
        from .isolation import IsolatedTarget

        isolated_target = IsolatedTarget.start(
            spec, features=features, timeout=timeout, max_reply=max_reply, dialect=dialect
        )
        kind = isolated_target.dialect.adapter_kind
        if kind is not None and "accepts" in isolated_target.hello:  # an adapter, in its worker
            adapter: Target = kind.remote_target(isolated_target)
            return adapter
        return isolated_target
    return form.load(spec, TargetOptions(features, timeout, max_reply, dialect))


def resolved(spec: str) -> Any:
    """The object a `module:attribute` spec names (`Dialect.reference_target`, an entry of
    `Dialect.sdk_targets`), importing its module: an SDK target's module raises a
    `UsageError` naming its extra when its SDK is not installed."""
    module, _, attribute = spec.partition(":")
    return getattr(import_module(module), attribute)


def registered(name: str) -> Any:
    """The object registered as target `name` (None: no such name)."""
    matches = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not matches:
        return None
    if len(matches) > 1:
        sources = ", ".join(ep.value for ep in matches)
        raise UsageError(f"target name {name!r} is registered more than once: {sources}")
    try:
        return matches[0].load()
    except Exception as exc:
        raise UsageError(
            f"registered target {name!r} ({matches[0].value}) failed to load: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
