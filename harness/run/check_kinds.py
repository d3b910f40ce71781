"""Which `Check` the suites of a dialect get.

The fold dialects share `Check`; a dialect whose targets are events adapters asserts
through the check its `Dialect.adapter_kind` makes (the events contract's checker).
"""

from __future__ import annotations

from ..targets import Target
from .checks import Check

__all__ = ["check_for"]


def check_for(target: Target) -> Check:
    """The suites' handle on `target`, of the kind its dialect's suites assert with."""
    kind = target.dialect.adapter_kind
    check: Check = Check(target) if kind is None else kind.check(target)
    return check
