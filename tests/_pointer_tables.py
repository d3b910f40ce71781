"""A dialect's pointer → rules table as the tests read it (shared by the attribution and
the projection tests): its `PointerTable`, or one made of the rows and outside-the-shape
rules of the module its `rules_at` is written in (the reference's own tables, chat's and
Gemini's, and provider-events')."""

from __future__ import annotations

import re
import sys

from refold.dialects import Dialect
from refold.verdicts.pointer_table import PointerTable


def pointer_table_of(one: Dialect) -> PointerTable:
    """The table `one.rules_at` reads."""
    table = getattr(one.rules_at, "__self__", None)
    if isinstance(table, PointerTable):
        return table
    module = sys.modules[one.rules_at.__module__]
    rows = tuple((re.compile(pattern), frozenset(rules)) for pattern, rules in module._TABLE)
    return PointerTable(rows, frozenset(module.OUTSIDE_THE_SHAPE), one.places)
