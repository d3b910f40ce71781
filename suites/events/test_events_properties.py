"""Determinism under re-splitting, and the differential on damaged streams.

EV-DETERMINISM: two lossless splits of one known result give the same stripped turn.
Damaged streams (the source dialects' own: cut, errored, repeated, mistyped frames, with
canaries) must keep the contract and normalise, stripped, exactly as the reference
adapter does (events.md §5.6).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.run.marks import rule
from refold.strategies.events import damaged_frames, resplit_frames

from ._sources import DRAWN_SOURCE_PARAMS


@pytest.mark.parametrize("source", DRAWN_SOURCE_PARAMS)
@rule("EV-DETERMINISM")
@given(data=st.data())
def test_re_splitting_a_result_never_changes_the_stripped_turn(
    check: EventsCheck, source: str, data: st.DataObject
) -> None:
    first, second = data.draw(resplit_frames(source), label="two splits")
    check.deterministic(source, [first, second])


@pytest.mark.parametrize("source", DRAWN_SOURCE_PARAMS)
@rule(
    "EV-TEXT",
    "EV-ARGS-DELTA",
    "EV-USAGE",
    "EV-OPAQUE-FALLBACK",
    "EV-UNKNOWN",
    "EV-TRUNCATED",
    "EV-ERROR-FRAME",
    "EV-NOTHING-AFTER-ERROR",
    "EV-ARGS-INVALID",
    "EV-REASONING-OPAQUE",
    "EV-HOSTED-OPAQUE",
    "EV-CALL-ROUTE",
    "PERSIST-CANARY",
)
@given(data=st.data())
def test_damaged_streams_normalise_as_the_reference_adapter_does(
    check: EventsCheck, source: str, data: st.DataObject
) -> None:
    frames, canaries = data.draw(damaged_frames(source), label="frames")
    check.agrees_with_reference(source, frames, canaries=canaries)
