"""Broken on purpose: `response()` hands out one live snapshot that later chunks update in
place, as openai-python's `ChatCompletionStreamState.current_completion_snapshot`
does, so a response a caller kept changes under its feet.

Source: /work/shared/research/fold-semantics.md §1.1 (the snapshot is rebuilt in place
by `_accumulate_chunk`; §6 recommends comparing through it).
Breaks: LIFE-SNAPSHOT.
"""

from __future__ import annotations

from _chat_fold import FEATURES
from _chat_fold import Accumulator as Correct


class Accumulator(Correct):
    def __init__(self):
        super().__init__()
        self.snapshot = {}

    def response(self):
        response = super().response()
        self.snapshot.clear()  # the bug: one snapshot object, kept up to date
        self.snapshot.update(response)
        return self.snapshot


refold_target = {"name": "live_snapshot", "factory": Accumulator, "features": FEATURES}
