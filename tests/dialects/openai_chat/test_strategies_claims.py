"""Streams drawn for a target contain only what it claims: no departure from OpenAI's own
shape whose fold needs a feature the target does not claim, and no field of a feature it
does not claim (`refold.strategies.chat.allows`, one table).
"""

from __future__ import annotations

from typing import Any

import pytest
from _departures import NEEDS, departures, features_used
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference.chat import FEATURES
from refold.strategies.chat import (
    SHAPES,
    allows,
    chunk_streams,
    families_for,
    lifecycle_chunks,
    round_trips,
)

_FOLD_FEATURES = sorted(set(FEATURES) - {"text", "sse", "events"})
_CLAIMS = st.sets(st.sampled_from(_FOLD_FEATURES)).map(lambda f: frozenset({"text", *f}))


def _unclaimed(chunks: list[Any], claimed: frozenset[str]) -> dict[str, str]:
    found = {
        kind: NEEDS[kind]
        for kind in departures(chunks)
        if kind in NEEDS and NEEDS[kind] not in claimed
    }
    implied = {"tool_calls"} if claimed & {"tool_call_repair", "empty_arguments"} else set()
    found.update(dict.fromkeys(features_used(chunks) - claimed - implied, "claimed"))
    return found


@settings(max_examples=300)
@given(data=st.data(), claimed=_CLAIMS)
def test_a_lifecycle_stream_departs_only_in_ways_the_target_claims(
    data: st.DataObject, claimed: frozenset[str]
) -> None:
    chunks = data.draw(st.lists(lifecycle_chunks(features=claimed), min_size=1, max_size=8))
    assert not _unclaimed(chunks, claimed), chunks


@settings(max_examples=200)
@given(data=st.data(), claimed=_CLAIMS)
def test_a_round_trip_of_the_claimed_families_departs_only_in_ways_the_target_claims(
    data: st.DataObject, claimed: frozenset[str]
) -> None:
    _, chunks = data.draw(round_trips(features=claimed, families=families_for(claimed)))
    assert not _unclaimed(chunks, claimed), chunks


@settings(max_examples=200)
@given(data=st.data(), claimed=_CLAIMS)
def test_a_damaged_stream_departs_only_in_ways_the_target_claims(
    data: st.DataObject, claimed: frozenset[str]
) -> None:
    chunks = data.draw(chunk_streams(features=claimed))
    assert not _unclaimed(chunks, claimed), chunks


def test_without_robustness_no_null_entry_is_ever_drawn_for_the_lifecycle() -> None:
    claimed = frozenset(FEATURES) - {"robustness"}

    @settings(max_examples=300)
    @given(chunk=lifecycle_chunks(features=claimed))
    def no_null(chunk: dict[str, Any]) -> None:
        assert None not in chunk["choices"]

    no_null()


def test_each_family_needs_what_the_spec_says() -> None:
    assert families_for({"text"}) == {1, 2, 5}
    assert families_for(FEATURES) == set(range(1, 9))
    assert families_for({"text", "robustness"}) == {1, 2, 5, 8}


def test_every_shape_needs_features_of_the_spec() -> None:
    assert all(needed and needed <= set(FEATURES) for needed in SHAPES.values())


def test_an_unknown_shape_is_refused() -> None:
    with pytest.raises(InvalidArgument, match="family 9"):
        allows("family 9", FEATURES)
