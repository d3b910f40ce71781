"""Broken on purpose: `stop_reason: "stop_sequence"` is mapped to `end_turn` and the
`stop_sequence` that matched is dropped.

Modelled on: AQ17 (case 17): litellm 1.110.2 maps the stop reason to the OpenAI
finish reason `stop` and its Anthropic adapter maps that back to `end_turn`, losing the
sequence; vllm-project/vllm#45807 (always `end_turn`) on the server side.
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-STOP-REASON, AM-STOP-SEQUENCE.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES, nonblank
from _anthropic_fold import Accumulator as Correct


class Accumulator(Correct):
    def stop(self, delta):
        if nonblank(delta.get("stop_reason")) == "stop_sequence":
            # the bug: mapped, the matched sequence lost
            delta = {**delta, "stop_reason": "end_turn", "stop_sequence": None}
        super().stop(delta)


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_stop_sequence_as_end_turn",
    "factory": Accumulator,
    "features": FEATURES,
}
