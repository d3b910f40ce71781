"""Broken on purpose: every chunk's `usage` replaces the folded one, also when it is null
or absent, as openai-python's `_accumulate_chunk` does (`snapshot.usage = chunk.usage`,
unconditionally).

Source: /work/shared/research/fold-semantics.md §1.1 and Q14 `usage_then_trailing_chunk`
(a usage-less chunk after the usage chunk leaves `usage=None`).
Breaks: USAGE-LAST.
"""

from __future__ import annotations

from _chat_fold import FEATURES
from _chat_fold import Accumulator as Correct


class Accumulator(Correct):
    def add_usage(self, chunk):
        usage = chunk.get("usage")
        self.usage = usage if isinstance(usage, dict) else None  # the bug: None replaces too


refold_target = {"name": "usage_erased_by_null", "factory": Accumulator, "features": FEATURES}
