"""Turn a `--target` value into a Target (see `refold.targets` for the forms)."""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

from .errors import UsageError
from .python_targets import from_object, import_python_target
from .targets import DEFAULT_MAX_REPLY, Target

__all__ = ["BUILTIN_TARGETS", "load_target"]

ENTRY_POINT_GROUP = "refold.targets"

BUILTIN_TARGETS: dict[str, str] = {
    "reference": "refold.reference_target:refold_target",
    "openai": "refold.sdk.openai:refold_target",
    "litellm": "refold.sdk.litellm:refold_target",
    "langchain": "refold.sdk.langchain:refold_target",
}
"""Built-in target names and the Python object each stands for."""


def load_target(
    spec: str, *, features: frozenset[str] | None = None, timeout: float = 5.0,
    isolated: bool = False, max_reply: int = DEFAULT_MAX_REPLY,
) -> Target:
    """Resolve `spec` to a target, claiming `features` (None: all its interface supports).

    A Python target is loaded into this process, or with `isolated` into a worker
    process of its own (`refold.isolation`, what the plugin does unless `--in-process`).
    `timeout` is the deadline of every call, `max_reply` the largest reply in bytes, for
    every target out of this process.

    Raises:
        UsageError: the target cannot be found or its feature claim is invalid.
    """
    if spec.startswith("exec:"):
        from .exec_target import ExecTarget

        return ExecTarget.start(spec.removeprefix("exec:"), features=features, timeout=timeout,
                                max_reply=max_reply)
    if spec.startswith(("http://", "https://")):
        from .http_target import HttpTarget

        return HttpTarget.connect(spec, features=features, timeout=timeout,
                                  max_reply=max_reply)
    if isolated:
        from .isolation import IsolatedTarget

        return IsolatedTarget.start(spec, features=features, timeout=timeout,
                                    max_reply=max_reply)
    if spec == "reference":  # before registered names: no plugin can stand in for it
        return import_python_target(BUILTIN_TARGETS[spec], features=features)
    registered = _registered(spec)
    if registered is not None:
        return from_object(registered, name=spec, features=features)
    if spec in BUILTIN_TARGETS:
        return import_python_target(BUILTIN_TARGETS[spec], features=features)
    return import_python_target(spec, features=features)


def _registered(name: str) -> Any:
    matches = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not matches:
        return None
    if len(matches) > 1:
        sources = ", ".join(ep.value for ep in matches)
        raise UsageError(f"target name {name!r} is registered more than once: {sources}")
    try:
        return matches[0].load()
    except Exception as exc:
        raise UsageError(f"registered target {name!r} ({matches[0].value}) failed to load: "
                         f"{type(exc).__name__}: {exc}") from exc
