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
from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from ._json_values import json_objects

__all__ = [
    "Refusal",
    "Stream",
    "Variant",
    "Varied",
    "inserted_before",
    "objects_after_the_first",
    "paired",
    "typed_as",
    "typed_or_untyped",
    "with_noise",
    "with_unknown_keys",
]


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


Stream = Callable[[frozenset[str], st.DataObject], list[JSONObject]]
"""A lossless stream of the claimed features."""


class Refusal(NamedTuple):
    """How an item that is not a JSON object is sent within a stream."""

    stream: Stream
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


def objects_after_the_first(
    stream: Stream, types: Sequence[str]
) -> Callable[[frozenset[str], st.DataObject], list[JSON]]:
    """Any JSON objects after a lossless stream's first item, some typed like the items
    the fold reads (`types`, so their fields reach it), before the whole stream."""

    def junk(claimed: frozenset[str], data: st.DataObject) -> list[JSON]:
        objects = data.draw(st.lists(json_objects(), min_size=1, max_size=3), label="junk")
        items = stream(claimed, data)
        typed = [
            {**item, "type": data.draw(st.sampled_from(types))}
            if data.draw(st.booleans())
            else item
            for item in objects
        ]
        return [*items[:1], *typed, *items]

    return junk


def typed_or_untyped(
    payloads: st.SearchStrategy[JSONObject], kinds: st.SearchStrategy[JSON]
) -> st.SearchStrategy[JSONObject]:
    """Items holding `payloads` of a type of `kinds`, or of none."""
    typed = st.builds(lambda extra, kind: {**extra, "type": kind}, payloads, kinds)
    untyped = payloads.map(lambda extra: {k: v for k, v in extra.items() if k != "type"})
    return typed | untyped


def typed_as(kind: str, payloads: st.SearchStrategy[JSONObject]) -> st.SearchStrategy[JSONObject]:
    """Items of type `kind`, bare or carrying `payloads`."""
    return st.just({"type": kind}) | st.builds(lambda extra: {**extra, "type": kind}, payloads)


def with_noise(
    stream: Stream,
    noise: st.SearchStrategy[JSONObject],
    end: Callable[[list[JSONObject]], int],
    without: str,
) -> Varied:
    """A lossless stream with one to three `noise` items inserted anywhere up to position
    `end(...)` (`inserted_before`), against the same stream without `without`."""

    def varied(claimed: frozenset[str], data: st.DataObject) -> Variant:
        items = stream(claimed, data)
        return Variant(inserted_before(data, items, noise, end), items, without)

    return varied


def with_unknown_keys(
    stream: Stream,
    keys: st.SearchStrategy[JSONObject],
    read: Callable[[JSONObject], Collection[str]],
    without: str,
) -> Varied:
    """A lossless stream some of whose items are given drawn `keys` (but for `type` and
    those the fold reads on the item, `read(item)`), against the same stream without
    `without`."""

    def varied(claimed: frozenset[str], data: st.DataObject) -> Variant:
        items = stream(claimed, data)
        changed = copy.deepcopy(items)
        for number in data.draw(
            st.sets(st.integers(0, len(changed) - 1), min_size=1), label="events given keys"
        ):
            item = changed[number]
            known = read(item)
            for key, value in data.draw(keys, label="keys").items():
                if key not in known and key != "type":
                    item.setdefault(key, value)
        return Variant(changed, items, without)

    return varied


Pairs = Callable[[frozenset[str]], st.SearchStrategy[tuple[list[JSONObject], list[JSONObject]]]]
"""Given the claimed features, the (changed, baseline) streams of a robustness case."""


def paired(pairs: Pairs, without: str) -> Varied:
    """A drawn stream varied by what the case's rules say cannot matter and the same
    stream without it (`without`), drawn together (`pairs`)."""

    def varied(claimed: frozenset[str], data: st.DataObject) -> Variant:
        changed, baseline = data.draw(pairs(claimed), label="streams")
        return Variant(changed, baseline, without)

    return varied
