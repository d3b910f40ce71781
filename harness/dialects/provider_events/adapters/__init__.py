"""The provider-events dialect's target kinds: events adapters, in process, in a worker,
and over refold-events/1 (`exec:` and `http://`), and the check its suites assert with.

`ADAPTERS` is the dialect's `AdapterKind`: the shared target forms (`refold.targets.forms`),
the loader and the plugin reach these modules only through it. Its modules are imported
when a target is loaded, never with the registry (they import the shared harness, which
imports the registry).
"""

from __future__ import annotations

from typing import Any

__all__ = ["ADAPTERS", "EVENTS_PROTOCOL"]

EVENTS_PROTOCOL = "refold-events/1"
"""The line protocol of events adapters (events.md §5)."""


class _Adapters:
    """The `AdapterKind` of provider-events (`refold.dialects.AdapterKind`)."""

    protocol = EVENTS_PROTOCOL

    def python_target(
        self, declaration: dict[str, Any], name: str, features: frozenset[str] | None
    ) -> Any:
        from .python import adapter_target

        return adapter_target(declaration, name, features)

    def exec_target(
        self, command: str, *, features: frozenset[str] | None, timeout: float, max_reply: int
    ) -> Any:
        from .exec import EventsExecTarget

        return EventsExecTarget.start(
            command, features=features, timeout=timeout, max_reply=max_reply
        )

    def greeted_target(self, transport: Any, *, spec: str, features: frozenset[str] | None) -> Any:
        from .exec import EventsExecTarget

        return EventsExecTarget.greeted(transport, spec=spec, features=features)

    def http_target(
        self, url: str, *, features: frozenset[str] | None, timeout: float, max_reply: int
    ) -> Any:
        from .http import EventsHttpTarget

        return EventsHttpTarget.connect(
            url, features=features, timeout=timeout, max_reply=max_reply
        )

    def remote_target(self, worker: Any) -> Any:
        from .python import RemoteEventsTarget

        return RemoteEventsTarget(worker)

    def check(self, target: Any) -> Any:
        from .checks import EventsCheck

        return EventsCheck(target)


ADAPTERS = _Adapters()
"""How provider-events targets are loaded and checked (`Dialect.adapter_kind`)."""
