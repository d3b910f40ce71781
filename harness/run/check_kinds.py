"""Which `Check` the suites of a dialect get: one table, by dialect name.

The fold dialects share `Check`; the events contract asserts through the event checker
(`refold.run.events_checks`). Adding a dialect with assertions of its own is one row here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from ..dialects.provider_events import PROVIDER_EVENTS
from ..targets import Target
from .checks import Check
from .events_checks import EventsCheck

__all__ = ["CHECK_KINDS", "check_for"]

CHECK_KINDS: Mapping[str, Callable[[Target], Check]] = MappingProxyType(
    {
        PROVIDER_EVENTS.name: EventsCheck,
    }
)
"""Dialect name → its Check, for the dialects that do not use `Check` itself."""


def check_for(target: Target) -> Check:
    """The suites' handle on `target`, of the kind its dialect's suites assert with."""
    return CHECK_KINDS.get(target.dialect.name, Check)(target)
