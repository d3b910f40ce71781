"""Broken on purpose: a usage count never goes down and a count the last object omits is
kept: each count is the highest any chunk sent, so an image stream whose
`thoughtsTokenCount` falls from 244 to 167 keeps 244 (and its total 1471, not 1394).

Modelled on: langchain-google-genai 4.4.3 `_response_to_result` turns each chunk's running
totals into deltas with `subtract_usage(cumulative_usage, prev_usage)`, which floors every
delta at zero, and langchain-core 1.8.3 `AIMessageChunk.__add__` sums them back
(`langchain_google_genai/chat_models.py`, `langchain_core/messages/ai.py`): the sum of
deltas floored at zero is the running maximum, per key.
Evidence: /work/shared/research/gemini-fold.md R9, R12.4, R13 (verified: total 1471,
expected 1394).
Breaks: GM-USAGE-LAST.
"""

from __future__ import annotations

import copy

from _gemini_fold import FEATURES, is_number
from _gemini_fold import Accumulator as Correct


class Accumulator(Correct):
    def add_usage(self, usage):
        if not isinstance(usage, dict):
            return
        merged = dict(self.usage or {})
        for key, value in usage.items():
            earlier = merged.get(key)
            if is_number(value) and is_number(earlier):
                value = max(earlier, value)  # the bug: a floored delta never lowers a count
            merged[key] = copy.deepcopy(value)  # the bug: per key, an omitted count stays
        self.usage = merged


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_keeps_highest_usage",
    "factory": Accumulator,
    "features": FEATURES,
}
