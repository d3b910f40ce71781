"""A dialect's pointer → rule table, read the one way every table is read.

Each row is a regular expression over RFC 6901 pointers into the dialect's result and
the rules that decide the value there; the first row whose pattern matches the whole
pointer answers. A place no row names is the dialect's outside-the-shape rules' (a key
that should not be there); the whole result (the empty pointer) is no rule's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Compiled", "PointerTable", "compiled", "rules_in"]

Compiled = tuple[tuple[re.Pattern[str], frozenset[str]], ...]


def compiled(table: Iterable[tuple[str, Iterable[str]]]) -> Compiled:
    """The rows of `table`, (pattern, rules), with their patterns compiled."""
    return tuple((re.compile(pattern), frozenset(rules)) for pattern, rules in table)


def rules_in(table: Compiled, pointer: str, outside: frozenset[str]) -> frozenset[str]:
    """The rules of the first row of `table` matching all of `pointer`; `outside` when no
    row does; none for the empty pointer."""
    for pattern, rules in table:
        if pattern.fullmatch(pointer):
            return rules
    return outside if pointer else frozenset()


@dataclass(frozen=True)
class PointerTable:
    """One dialect's table: its rows, its outside-the-shape rules and a place of each."""

    rows: Compiled
    """(pattern, rules) per row, most specific first (`compiled`)."""
    outside: frozenset[str]
    """The rules of a place no row names."""
    places: tuple[str, ...]
    """A place of every row of the table (and of each alternative), and one it does not
    name (`Dialect.places`: what a stated projection is judged against)."""

    @property
    def owners(self) -> frozenset[str]:
        """Every rule some place of the result is charged to."""
        return self.outside.union(*(rules for _pattern, rules in self.rows))

    def rules_at(self, pointer: str) -> frozenset[str]:
        """The rules that decide the value at `pointer` of the result: the first row's
        matching it whole, the outside-the-shape rules for a place no row names, none
        for the whole result (the empty pointer)."""
        return rules_in(self.rows, pointer, self.outside)
