"""What a rule is: the stable id every layer marks, groups and baselines by.

Each dialect's registry (`refold.reference.<dialect>.RULES`) is a table of these; rule ids
are unique across dialects, so an id alone names its dialect.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Rule"]


class Rule(NamedTuple):
    """One fold rule: its stable id, the feature it belongs to and what it says."""

    id: str
    feature: str
    statement: str
