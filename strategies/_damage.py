"""Damaging a drawn stream: every dialect's streams that need not fold to a known result.

A dialect lists its kinds of damage in order, each named by its row of the dialect's
claims table; `damaged` applies each kind the claimed features allow, or not, as drawn,
so a failing stream shrinks toward fewer kinds of damage and, at last, none.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable

from hypothesis import event
from hypothesis import strategies as st

from refold.reference import JSONObject

from ._text import BOOLEANS

__all__ = ["Damage", "damaged"]

Damage = Callable[[st.DrawFn, list[JSONObject]], list[JSONObject]]
"""One kind of damage: (draw, items) -> the items damaged (a new list)."""


def damaged(
    draw: st.DrawFn,
    items: list[JSONObject],
    damages: Iterable[tuple[str, Damage]],
    allowed: Callable[[str], bool],
) -> list[JSONObject]:
    """A copy of `items` with each kind of `damages` whose name is `allowed` applied, or
    not, as drawn (each one noted as a Hypothesis event: `damage: <name>`)."""
    result = copy.deepcopy(items)
    for name, damage in damages:
        if allowed(name) and draw(BOOLEANS):
            event(f"damage: {name}")
            result = damage(draw, result)
    return result
