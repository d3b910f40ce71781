"""Lossless streams: an adapter's events keep the contract and conserve the known result.

For every lossless split of a known result of every source dialect (each dialect's own
strategies), with canaries planted in unknown keys and non-portable fields, the adapter's
output breaks no rule the event checker checks: the grammar, Completed exactly once and
last, per-call order, text and argument conservation against the known result, usage
last-wins, opaque the whole frame, every frame covered, and nothing persisted that holds a
frame, the response id or a canary.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON, JSONObject
from refold.run.marks import rule
from refold.strategies.events import lossless_frames

from ._sources import DRAWN_SOURCE_PARAMS

_Case = tuple[JSONObject, list[JSON], list[str]]

_GRAMMAR = (
    "EV-GRAMMAR",
    "EV-COMPLETED-LAST",
    "EV-NO-EMPTY-DELTA",
    "EV-CALL-STARTED",
    "EV-IDS-SINGLE-USE",
    "EV-CALL-IDENTITY",
    "EV-STARTED-COMPLETED",
    "EV-NO-DELTA-AFTER-COMPLETED",
    "EV-ARGS-PARSED",
)
_CONSERVATION = (
    "EV-TEXT-CONSERVE",
    "EV-ARGS-CONSERVE",
    "EV-TURN-CALLS",
    "EV-USAGE-LAST",
    "EV-USAGE-UNREPORTED",
    "EV-USAGE-MONOTONE",
    "EV-FOLD-AGREES",
    "EV-STOP-MAP",
    "EV-STOP-TOOL",
    "EV-TURN-FIELDS",
)
_OPAQUE = ("EV-OPAQUE-FRAME", "EV-FRAME-COVER", "EV-FRAME-ORDER", "EV-OPAQUE-TYPE")
_PERSISTENCE = (
    "PERSIST-STRIP",
    "PERSIST-CANARY",
    "PERSIST-RESPONSE-ID",
    "PERSIST-PORTABLE",
    "PERSIST-IDEMPOTENT",
    "PERSIST-NO-SEMANTICS",
)


def _noted(case: _Case) -> _Case:
    known, _, canaries = case
    note(f"known result: {json.dumps(known, ensure_ascii=False)}")
    note(f"canaries: {canaries}")
    return case


@pytest.mark.parametrize("source", DRAWN_SOURCE_PARAMS)
@rule(*_GRAMMAR)
@given(data=st.data())
def test_events_of_lossless_streams_keep_the_grammar(
    check: EventsCheck, source: str, data: st.DataObject
) -> None:
    known, frames, canaries = _noted(data.draw(lossless_frames(source), label="case"))
    check.keeps_contract(source, frames, known=known, canaries=canaries)


@pytest.mark.parametrize("source", DRAWN_SOURCE_PARAMS)
@rule(*_CONSERVATION)
@given(data=st.data())
def test_events_of_lossless_streams_conserve_the_known_result(
    check: EventsCheck, source: str, data: st.DataObject
) -> None:
    known, frames, canaries = _noted(data.draw(lossless_frames(source), label="case"))
    check.keeps_contract(source, frames, known=known, canaries=canaries)


@pytest.mark.parametrize("source", DRAWN_SOURCE_PARAMS)
@rule(*_OPAQUE)
@given(data=st.data())
def test_every_frame_is_the_whole_opaque_of_its_events(
    check: EventsCheck, source: str, data: st.DataObject
) -> None:
    known, frames, canaries = _noted(data.draw(lossless_frames(source), label="case"))
    check.keeps_contract(source, frames, known=known, canaries=canaries)


@pytest.mark.parametrize("source", DRAWN_SOURCE_PARAMS)
@rule(*_PERSISTENCE)
@given(data=st.data())
def test_nothing_persisted_holds_a_frame_a_response_id_or_a_canary(
    check: EventsCheck, source: str, data: st.DataObject
) -> None:
    known, frames, canaries = _noted(data.draw(lossless_frames(source), label="case"))
    check.keeps_contract(source, frames, known=known, canaries=canaries)
