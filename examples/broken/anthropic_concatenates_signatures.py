"""Broken on purpose: the `signature` of every `signature_delta` of a thinking block is
appended to the earlier ones instead of replacing them.

Modelled on: AQ10 (exp D, two signature_delta events): langchain-anthropic
1.7.10 merges thinking chunks by `index` and langchain-core 1.8.3 concatenates their
string fields, so two signatures come back as one string (the next turn fails with
"Invalid `signature` in `thinking` block").
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-THINK-SIGNATURE.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES, Block
from _anthropic_fold import Accumulator as Correct


class _Block(Block):
    def add_signature(self, signature):
        self.signature = (self.signature or "") + signature  # the bug: appended


class Accumulator(Correct):
    Block = _Block


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_concatenates_signatures",
    "factory": Accumulator,
    "features": FEATURES,
}
