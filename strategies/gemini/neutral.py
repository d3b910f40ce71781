"""Gemini `streamGenerateContent` streams as an events adapter's input (gemini-fold.md,
"Provider-neutral events"): refold.strategies.events draws them from here."""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from refold.reference import JSONObject
from refold.reference.gemini import FEATURES

from .._frame_sources import FrameSource
from . import chunk_splits, chunk_streams, responses, round_trips

__all__ = ["FRAME_SOURCE"]

_FEATURES = frozenset(FEATURES) - {"candidates", "sse"}
"""Every Gemini feature a single-candidate stream can carry (several candidates may be
refused, EV-CHOICE0 as for Chat; sse is not an adapter's): lifecycle for the damaged
streams that are cut or go on after an error chunk, and for usage after the finish."""

_RESPONSE_ID = "gemini-response-"
"""Put before every drawn `responseId`: PERSIST-RESPONSE-ID searches the persisted bytes
for the raw id, and the one to six characters the Gemini strategies draw (Google's ids
have no prefix) are found inside any word; Chat's `chatcmpl-` and Anthropic's `msg_` do
the same for theirs."""


def _recognisable(value: JSONObject) -> JSONObject:
    """A response or chunk whose non-blank `responseId` carries `_RESPONSE_ID`."""
    found = value.get("responseId")
    if isinstance(found, str) and found.strip():
        return {**value, "responseId": _RESPONSE_ID + found}
    return value


def _round_trips(
    *, features: Collection[str]
) -> st.SearchStrategy[tuple[JSONObject, list[JSONObject]]]:
    return round_trips(features=features).map(
        lambda case: (_recognisable(case[0]), [_recognisable(chunk) for chunk in case[1]])
    )


def _responses(*, features: Collection[str]) -> st.SearchStrategy[JSONObject]:
    return responses(features=features).map(_recognisable)


def _damaged(*, features: Collection[str]) -> st.SearchStrategy[list[JSONObject]]:
    return chunk_streams(features=features).map(lambda chunks: list(map(_recognisable, chunks)))


FRAME_SOURCE = FrameSource(
    name="gemini-generate-content",
    round_trips=_round_trips,
    result=_responses,
    splits=chunk_splits,
    damaged=_damaged,
    features=_FEATURES,
)
"""The Gemini strategies, as an events adapter is fed them."""
