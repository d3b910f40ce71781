"""What a source dialect's strategies give an events adapter (`FrameSource`), and where the
events strategies find them (`frame_sources`).

A kernel module: it names no dialect. A dialect offers its `FrameSource` as
`FRAME_SOURCE` in the `neutral` module of its strategies package; adding a source dialect
is adding that module.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import strategies as st

from refold.reference import JSONObject

__all__ = ["FrameSource", "frame_sources"]


@dataclass(frozen=True)
class FrameSource:
    """A source dialect's strategies, as an events adapter is fed them."""

    name: str
    """The dialect's name (`refold.reference.events.DIALECTS`)."""
    round_trips: Callable[..., st.SearchStrategy[tuple[JSONObject, list[JSONObject]]]]
    """`(known, items)`: a known result and a lossless split of it (keyword `features`)."""
    result: Callable[..., st.SearchStrategy[JSONObject]]
    """Known results (keyword `features`)."""
    splits: Callable[[JSONObject], st.SearchStrategy[list[JSONObject]]]
    """The lossless splits of one known result."""
    damaged: Callable[..., st.SearchStrategy[list[JSONObject]]]
    """Streams that need not be lossless: cut, errored, repeated (keyword `features`)."""
    features: frozenset[str]
    """The features its streams are drawn with: those an adapter's input can carry."""
    sentinel: bool = False
    """Whether a stream may end with the `"[DONE]"` frame (events.md §4.1)."""
    fingerprint: bool = False
    """Whether its frames carry `system_fingerprint`, a field no neutral event reads, where
    a canary is planted too (PERSIST-CANARY)."""


_MODULE = "neutral"
"""Where a dialect's strategies package keeps its `FrameSource` (as `FRAME_SOURCE`)."""


def frame_sources(strategies: str) -> dict[str, FrameSource]:
    """Every source dialect's `FrameSource` in the strategies package named `strategies`,
    by dialect name, sorted: the `FRAME_SOURCE` of each subpackage's `neutral` module."""
    found: dict[str, FrameSource] = {}
    layer = importlib.import_module(strategies)
    for module in pkgutil.iter_modules(layer.__path__):
        if not module.ispkg or module.name.startswith("_"):
            continue
        name = f"{strategies}.{module.name}.{_MODULE}"
        if importlib.util.find_spec(name) is None:
            continue
        source: FrameSource = importlib.import_module(name).FRAME_SOURCE
        found[source.name] = source
    return dict(sorted(found.items()))
