"""What each source dialect's strategies give an events adapter, by dialect name.

One table, `_SOURCES`: adding a source dialect is one row (its round trips, its damaged
streams, the features its streams are drawn with). Chat streams get their `"[DONE]"`
sentinel most of the time: without it the body ended after the last chunk (EV-CHAT-EOF).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.reference.anthropic import FEATURES as MESSAGE_FEATURES
from refold.reference.chat import FEATURES as CHAT_FEATURES
from refold.reference.gemini import FEATURES as GEMINI_FEATURES
from refold.reference.responses import FEATURES as RESPONSE_FEATURES
from refold.strategies.anthropic import event_splits, event_streams, messages
from refold.strategies.anthropic import round_trips as message_round_trips
from refold.strategies.chat import chunk_splits, chunk_streams, completions
from refold.strategies.chat import round_trips as chat_round_trips
from refold.strategies.gemini import chunk_splits as gemini_splits
from refold.strategies.gemini import chunk_streams as gemini_streams
from refold.strategies.gemini import responses as gemini_responses
from refold.strategies.gemini import round_trips as gemini_round_trips
from refold.strategies.responses import event_splits as response_splits
from refold.strategies.responses import event_streams as response_streams
from refold.strategies.responses import responses
from refold.strategies.responses import round_trips as response_round_trips

from ._canaries import with_canaries

__all__ = ["SOURCE_FEATURES", "damaged_frames", "lossless_frames", "resplit_frames"]

_CHAT_FEATURES = frozenset(CHAT_FEATURES) - {"choices", "lifecycle", "sse", "events"}
"""Every chat feature a single-choice stream can carry (several choices may be refused,
EV-CHOICE0; lifecycle, sse and events are not an adapter's)."""

_MESSAGE_FEATURES = frozenset(MESSAGE_FEATURES) - {"lifecycle", "sse"}
"""Every Anthropic feature but lifecycle (no events after message_stop) and sse."""

_RESPONSE_FEATURES = frozenset(RESPONSE_FEATURES) - {"sse", "events"}
"""Every Responses feature but sse and events (an adapter's own): lifecycle for the
damaged streams that end without a terminal (EV-TRUNCATED) or go on after it."""

_GEMINI_FEATURES = frozenset(GEMINI_FEATURES) - {"candidates", "sse"}
"""Every Gemini feature a single-candidate stream can carry (several candidates may be
refused, EV-CHOICE0 as for Chat; sse is not an adapter's): lifecycle for the damaged
streams that are cut or go on after an error chunk, and for usage after the finish."""

_GEMINI_RESPONSE_ID = "gemini-response-"
"""Put before every drawn `responseId`: PERSIST-RESPONSE-ID searches the persisted bytes
for the raw id, and the one to six characters the Gemini strategies draw (Google's ids
have no prefix) are found inside any word; Chat's `chatcmpl-` and Anthropic's `msg_` do
the same for theirs."""


def _recognisable(value: JSONObject) -> JSONObject:
    """A response or chunk whose non-blank `responseId` carries `_GEMINI_RESPONSE_ID`."""
    found = value.get("responseId")
    if isinstance(found, str) and found.strip():
        return {**value, "responseId": _GEMINI_RESPONSE_ID + found}
    return value


def _gemini_round_trips(
    *, features: Collection[str]
) -> st.SearchStrategy[tuple[JSONObject, list[JSONObject]]]:
    return gemini_round_trips(features=features).map(
        lambda case: (_recognisable(case[0]), [_recognisable(chunk) for chunk in case[1]])
    )


def _gemini_damaged(*, features: Collection[str]) -> st.SearchStrategy[list[JSONObject]]:
    return gemini_streams(features=features).map(lambda chunks: list(map(_recognisable, chunks)))


@dataclass(frozen=True)
class _Source:
    round_trips: Callable[..., st.SearchStrategy[tuple[JSONObject, list[JSONObject]]]]
    result: Callable[..., st.SearchStrategy[JSONObject]]
    splits: Callable[[JSONObject], st.SearchStrategy[list[JSONObject]]]
    damaged: Callable[..., st.SearchStrategy[list[JSONObject]]]
    features: frozenset[str]
    sentinel: bool


_SOURCES: dict[str, _Source] = {
    "openai-chat": _Source(
        chat_round_trips, completions, chunk_splits, chunk_streams, _CHAT_FEATURES, sentinel=True
    ),
    "openai-responses": _Source(
        response_round_trips,
        responses,
        response_splits,
        response_streams,
        _RESPONSE_FEATURES,
        sentinel=False,
    ),
    "anthropic-messages": _Source(
        message_round_trips,
        messages,
        lambda message: event_splits(message, late_events=False),
        event_streams,
        _MESSAGE_FEATURES,
        sentinel=False,
    ),
    "gemini-generate-content": _Source(
        _gemini_round_trips,
        lambda **claims: gemini_responses(**claims).map(_recognisable),
        gemini_splits,
        _gemini_damaged,
        _GEMINI_FEATURES,
        sentinel=False,
    ),
}

SOURCE_FEATURES: dict[str, frozenset[str]] = {name: s.features for name, s in _SOURCES.items()}
"""The features each source dialect's streams are drawn with."""


def _source(name: str) -> _Source:
    try:
        return _SOURCES[name]
    except KeyError:
        raise ValueError(
            f"no strategies for source dialect {name!r}; expected one of {', '.join(_SOURCES)}"
        ) from None


@st.composite
def _ended(draw: st.DrawFn, frames: list[JSONObject], source: _Source) -> list[JSON]:
    ended: list[JSON] = list(frames)
    if source.sentinel and draw(st.integers(0, 4)) > 0:  # mostly with the sentinel
        ended.append("[DONE]")
    return ended


@st.composite
def lossless_frames(
    draw: st.DrawFn, source: str, *, features: Collection[str] | None = None
) -> tuple[JSONObject, list[JSON], list[str]]:
    """Draw `(known, frames, canaries)`: a known result of `source` (a chat.completion,
    a Message), a lossless split of it as frames, and the canaries planted in them."""
    chosen = _source(source)
    known, items = draw(chosen.round_trips(features=features or chosen.features))
    frames, canaries = draw(with_canaries(draw(_ended(items, chosen)), source=source))
    return known, frames, canaries


@st.composite
def resplit_frames(draw: st.DrawFn, source: str) -> tuple[list[JSON], list[JSON]]:
    """Draw two lossless splits of one known result of `source` (EV-DETERMINISM)."""
    chosen = _source(source)
    known = draw(chosen.result(features=chosen.features))
    first = draw(_ended(draw(chosen.splits(known)), chosen))
    second = draw(_ended(draw(chosen.splits(known)), chosen))
    return first, second


@st.composite
def damaged_frames(draw: st.DrawFn, source: str) -> tuple[list[JSON], list[str]]:
    """Draw `(frames, canaries)`: a stream of `source` that need not be lossless (cut,
    errored, repeated, mistyped: the source's own damaged streams), with canaries."""
    chosen = _source(source)
    items = draw(chosen.damaged(features=chosen.features))
    return draw(with_canaries(draw(_ended(items, chosen)), source=source))
