"""Broken on purpose: a `message_delta` raises AttributeError when message_start carried no
`usage` or the message_delta has none, as reading `snapshot.usage.output_tokens` does.

Modelled on: AQ4 (case 04, the docs' extended-thinking stream, and exp F):
anthropic-python 2.14.0 `accumulate_event` raises "'NoneType' object has no attribute
'output_tokens'"; @anthropic-ai/sdk 1.14.0 raises a TypeError.
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-USAGE-ABSENT.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES
from _anthropic_fold import Accumulator as Correct


class Accumulator(Correct):
    def message_delta(self, event):
        if self.message.get("usage") is None or event.get("usage") is None:
            # The bug: usage is read as an attribute of both objects, present or not.
            raise AttributeError("'NoneType' object has no attribute 'output_tokens'")
        super().message_delta(event)


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_crash_without_usage",
    "factory": Accumulator,
    "features": FEATURES,
}
