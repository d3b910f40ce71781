"""The edit most departures are undone by (`refold.verdicts.undoing`): dropping the items
the departure added. Every item kept is a deep copy, so an undone stream never shares an
object with the stream it was made from.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from refold.reference import JSON

__all__ = ["without"]


def without(stream: list[JSON], drop: Callable[[JSON], bool]) -> list[JSON]:
    """A deep copy of `stream` less the items `drop` picks, in order."""
    return [copy.deepcopy(item) for item in stream if not drop(item)]
