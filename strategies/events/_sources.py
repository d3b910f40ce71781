"""What each source dialect's strategies give an events adapter, by dialect name.

Each source dialect offers its strategies as a `FrameSource` in its own strategies package
(`refold.strategies._frame_sources`), found there, so adding a source dialect changes
nothing here. A source with a sentinel (Chat's `"[DONE]"`) gets it most of the time:
without it the body ended after the last frame (EV-CHAT-EOF).
"""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from .._frame_sources import FrameSource, frame_sources
from ._canaries import with_canaries

__all__ = ["SOURCE_FEATURES", "damaged_frames", "lossless_frames", "resplit_frames"]

_SOURCES: dict[str, FrameSource] = frame_sources(__name__.rsplit(".", 2)[0])
"""Every source dialect's strategies, by name."""

SOURCE_FEATURES: dict[str, frozenset[str]] = {name: s.features for name, s in _SOURCES.items()}
"""The features each source dialect's streams are drawn with."""


def _source(name: str) -> FrameSource:
    try:
        return _SOURCES[name]
    except KeyError:
        raise ValueError(
            f"no strategies for source dialect {name!r}; expected one of {', '.join(_SOURCES)}"
        ) from None


@st.composite
def _ended(draw: st.DrawFn, frames: list[JSONObject], source: FrameSource) -> list[JSON]:
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
    frames, canaries = draw(
        with_canaries(draw(_ended(items, chosen)), fingerprint=chosen.fingerprint)
    )
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
    return draw(with_canaries(draw(_ended(items, chosen)), fingerprint=chosen.fingerprint))
