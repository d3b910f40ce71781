"""Round trips and damaged streams: drawn the same way in every dialect, from its parts.

A round trip is a known result holding only what the target claims and a lossless split
of it, from the split families those claims are judged on (or the ones asked for). A
damaged stream is such a split with the kinds of damage the claims allow applied, or
not, as drawn (`damaged`). A dialect gives what differs as a `StreamParts`: its claims
table, how it draws a result and a split of one, and its kinds of damage; its public
`round_trips` and damaged-stream strategies take the claims as `Claimed` keywords.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import TypedDict

from hypothesis import strategies as st

from refold.reference import JSONObject

from ._claims import Claims
from ._damage import Damage, damaged

__all__ = ["Claimed", "StreamParts", "damaged_streams", "round_trips"]


class Claimed(TypedDict, total=False):
    """What a target claims, as a dialect's `round_trips` and damaged streams take it."""

    features: Collection[str]
    """The features the target claims (default: the dialect's whole vocabulary)."""
    families: Collection[int] | None
    """The lossless split families to draw from (default, or None: every family the
    features are judged on)."""


@dataclass(frozen=True)
class StreamParts:
    """What one dialect's round trips and damaged streams are drawn from."""

    claims: Claims
    results: Callable[[Collection[str], Collection[int]], st.SearchStrategy[JSONObject]]
    """(features, chosen families) -> the known results a split is drawn of."""
    splits: Callable[
        [JSONObject, Collection[int], Collection[str]], st.SearchStrategy[list[JSONObject]]
    ]
    """(result, chosen families, features) -> its lossless splits."""
    damages: Callable[[Collection[str]], Iterable[tuple[str, Damage]]]
    """features -> every kind of damage, simplest first, each named by its claims row."""


@st.composite
def round_trips(
    draw: st.DrawFn,
    parts: StreamParts,
    *,
    features: Collection[str] | None = None,
    families: Collection[int] | None = None,
) -> tuple[JSONObject, list[JSONObject]]:
    """Draw `(result, items)`: a result of the claimed `features` and a lossless split
    of it from `families` (default: every family the features are judged on)."""
    claimed = parts.claims.features if features is None else features
    parts.claims.check_features(claimed)
    chosen = parts.claims.families_for(claimed) if families is None else families
    result = draw(parts.results(claimed, chosen))
    return result, draw(parts.splits(result, chosen, claimed))


@st.composite
def damaged_streams(
    draw: st.DrawFn,
    parts: StreamParts,
    *,
    features: Collection[str] | None = None,
    families: Collection[int] | None = None,
) -> list[JSONObject]:
    """Draw a stream that need not fold to any known result: a round trip's split,
    damaged in the ways the claimed `features` decide. Its expectation is the reference
    fold of the same items."""
    claimed = parts.claims.features if features is None else features
    _, items = draw(round_trips(parts, features=claimed, families=families))
    return damaged(
        draw, items, parts.damages(claimed), lambda name: parts.claims.allows(name, claimed)
    )
