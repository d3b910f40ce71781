"""Broken on purpose: each token count of `message_delta.usage` is added to the folded
one, so message_start's provisional `output_tokens` (1) is counted again (16 for 15) and
re-reported input and cache counts double.

Modelled on: AQ1: langchain-anthropic 1.7.10 with langchain-core 1.8.3 sums the
usage of `AIMessageChunk`s across message_delta events (cases 28, 29); the same sum in
spring-projects/spring-ai#921 and tensorzero/tensorzero#5481 (16 instead of 15).
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-USAGE-NEVER-SUM, AM-USAGE-REPLACE.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES, TOKEN_COUNTS, usable
from _anthropic_fold import Accumulator as Correct


class Accumulator(Correct):
    def replace_usage(self, key, value):
        earlier = (self.usage or {}).get(key)
        if usable(key, earlier) and key in TOKEN_COUNTS:
            value = earlier + value  # the bug: cumulative totals are added up
        super().replace_usage(key, value)


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_sums_message_delta_usage",
    "factory": Accumulator,
    "features": FEATURES,
}
