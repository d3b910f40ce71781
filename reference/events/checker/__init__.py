"""The event checker (refold.reference.events.checker): events.md's rules held to one
adapter's output for one stream, every violation returned with its rule, event index,
frame number and JSON pointer.

A package of its own beside the reference adapters it is not part of: the adapters are
the contract in code, the checker judges any adapter's output (the reference's too), and
`refold mutate --dialect provider-events` mutates the adapters, not the judge.
`refold.reference.events` re-exports what it offers. `differing_events`,
`differing_outcome` and `missing_at_raise` charge what the checks cannot see in one
output alone (a differential, a raise) to the rules of the places it points at.
"""

from ._checker import CHECKED_RULES, CHECKS, EMITTED_CHECKS, UNCHECKED, check_events, unchecked
from ._places import (
    EVENT_RULES,
    FIELD_RULES,
    OUTCOME_RULES,
    differing_events,
    differing_outcome,
    missing_at_raise,
)
from ._violation import RULE_IMPACTS, Violation

__all__ = [
    "CHECKED_RULES",
    "CHECKS",
    "EMITTED_CHECKS",
    "EVENT_RULES",
    "FIELD_RULES",
    "OUTCOME_RULES",
    "RULE_IMPACTS",
    "UNCHECKED",
    "Violation",
    "check_events",
    "differing_events",
    "differing_outcome",
    "missing_at_raise",
    "unchecked",
]
