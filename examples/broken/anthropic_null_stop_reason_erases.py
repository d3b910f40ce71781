"""Broken on purpose: every `message_delta` assigns its `stop_reason` and `stop_sequence`,
null included, so a later message_delta with `stop_reason: null` erases `end_turn`.

Modelled on: AQ26 (case 29, "end_turn, then null"): anthropic-python 2.14.0
`accumulate_event` assigns `current_snapshot.stop_reason = event.delta.stop_reason`; the
same in @anthropic-ai/sdk 1.14.0 `#accumulateMessage` and @ai-sdk/anthropic 3.0.140.
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-STOP-REASON, AM-STOP-SEQUENCE.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES
from _anthropic_fold import Accumulator as Correct


class Accumulator(Correct):
    def stop(self, delta):
        # The bug: assigned whatever it holds, so a blank reason erases the real one.
        reason, sequence = delta.get("stop_reason"), delta.get("stop_sequence")
        self.stop_reason = reason if isinstance(reason, str) else None
        self.stop_sequence = sequence if isinstance(sequence, str) else None


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_null_stop_reason_erases",
    "factory": Accumulator,
    "features": FEATURES,
}
