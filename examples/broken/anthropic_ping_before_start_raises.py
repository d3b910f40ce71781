"""Broken on purpose: any event before the first `message_start` (a `ping`, an unknown
event, a stray delta) raises RuntimeError instead of being ignored; `error` is still
recorded.

Modelled on: AQ23 (case 24): anthropic-python 2.14.0 `accumulate_event` raises
`RuntimeError('Unexpected event order, got ping before "message_start"')` (its
`.stream()` filters pings at the SSE layer first).
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-BEFORE-START, AM-PING, AM-UNKNOWN-EVENT.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES
from _anthropic_fold import Accumulator as Correct


class Accumulator(Correct):
    def before_start(self, kind, event):
        if kind != "message_start":  # the bug: only message_start may come first
            raise RuntimeError(f'Unexpected event order, got {kind} before "message_start"')
        self.start(event)


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_ping_before_start_raises",
    "factory": Accumulator,
    "features": FEATURES,
}
