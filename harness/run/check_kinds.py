"""Which `Check` the suites of a dialect get.

The fold dialects share `Check`; a dialect whose targets are events adapters
(`Dialect.adapters`, the events contract) asserts through the event checker
(`refold.run.events_checks`).
"""

from __future__ import annotations

from ..targets import Target
from .checks import Check
from .events_checks import EventsCheck

__all__ = ["check_for"]


def check_for(target: Target) -> Check:
    """The suites' handle on `target`, of the kind its dialect's suites assert with."""
    return EventsCheck(target) if target.dialect.adapters else Check(target)
