"""What the generic robustness suite (`test_robustness.py`) draws its cases as, and the
insertions the dialects' noise cases share.

A dialect's kit (`refold.suites._kits`) gives, in its `ROBUSTNESS` table, what each
property sends: a stream varied by what a robustness rule says cannot matter and the same
stream without it (`Variant`), a stream holding arbitrary JSON objects, a stream with a
block of an unknown type and its expected fold, and the stream a refused item is sent
within (`Refusal`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import NamedTuple

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

__all__ = ["Refusal", "Variant", "Varied", "inserted_before"]


class Variant(NamedTuple):
    """A stream varied by what the case's rules say cannot matter (`changed`), the same
    stream without it (`baseline`), and what that is (for the failure's summary: "the
    same events without ...")."""

    changed: list[JSON]
    baseline: list[JSON]
    without: str
    masked: bool = True
    """Compare with the known failures of other rules masked (`Check.differences`);
    False: within the target's projection alone (`Check.projected_differences`)."""


Varied = Callable[[frozenset[str], st.DataObject], Variant]
"""A robustness case: given the claimed features, the variant it folds."""


class Refusal(NamedTuple):
    """How an item that is not a JSON object is sent within a stream."""

    stream: Callable[[frozenset[str], st.DataObject], list[JSONObject]]
    """The stream (of the claimed features) it is sent within."""
    empty: str | None
    """The lifecycle rule whose error reading the fold after refusing the only item must
    give; None: the refused item always follows the stream's first."""
    masked: bool = True
    """As `Variant.masked`, for the folds before and after the refusal."""


def inserted_before(
    data: st.DataObject,
    items: list[JSONObject],
    new: st.SearchStrategy[JSONObject],
    end: Callable[[list[JSONObject]], int],
) -> list[JSONObject]:
    """`items` with one to three drawn items inserted anywhere up to position `end(...)`
    of the items as they stand (the first included)."""
    changed = copy.deepcopy(items)
    for item in data.draw(st.lists(new, min_size=1, max_size=3), label="inserted"):
        changed.insert(data.draw(st.integers(0, end(changed))), item)
    return changed
