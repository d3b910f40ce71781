"""Hypothesis strategies for provider-neutral event adapters (refold.strategies.events).

An adapter is fed the frames of a stream of another dialect (its source), so these draw
from each source dialect's own strategies: a known result and a lossless split of it
(`lossless_frames`), two splits of one result (`resplit_frames`) and damaged streams
(`damaged_frames`), with canary strings planted outside the portable fields
(`with_canaries`) for the persistence rules.

    >>> from hypothesis import given
    >>> from refold.strategies.events import lossless_frames
    >>> @given(lossless_frames("anthropic-messages"))
    ... def test_contract(case): known, frames, canaries = case
"""

from ._canaries import CANARY_PREFIX, planted, with_canaries
from ._sources import SOURCE_FEATURES, damaged_frames, lossless_frames, resplit_frames

__all__ = [
    "CANARY_PREFIX",
    "SOURCE_FEATURES",
    "damaged_frames",
    "lossless_frames",
    "planted",
    "resplit_frames",
    "with_canaries",
]
