"""Broken on purpose: `content_block_start` appends its block without reading `index`, and
a delta goes to the block at position `index` of that list, so a gap, a repeated start or
blocks started out of order send deltas to the wrong block (or nowhere).

Modelled on: AQ27 (exp C, first block at index 1): @anthropic-ai/sdk 1.14.0
`#accumulateMessage` pushes the block and routes by `snapshot.content.at(event.index)`,
silently dropping the text; anthropic-python 2.14.0 appends the same way and raises
IndexError.
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-BLOCK-ORDER, AM-BLOCK-REOPEN, AM-DELTA-ROUTE.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES, json_index
from _anthropic_fold import Accumulator as Correct


class Accumulator(Correct):
    def block_start(self, event):
        if json_index(event.get("index")) is not None:  # the bug: appended, its index unused
            self.open(len(self.blocks), event.get("content_block"))


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_routes_by_position",
    "factory": Accumulator,
    "features": FEATURES,
}
