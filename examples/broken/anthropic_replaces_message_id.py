"""Broken on purpose: the Message's `id` is one generated per stream, not message_start's.

Modelled on: §2.3 and AQ16: litellm 1.110.2 `ModelResponseIterator` ("Generate
response ID once per stream to match OpenAI-compatible behavior", handler.py), so every
round trip of its Anthropic adapter returns another id (13/30 cases pass only when the id
is ignored, §4).
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-START-BASE.
"""

from __future__ import annotations

import uuid

from _anthropic_fold import FEATURES
from _anthropic_fold import Accumulator as Correct


class Accumulator(Correct):
    def __init__(self):
        super().__init__()
        self.id = f"chatcmpl-{uuid.uuid4()}"  # the bug: an id of its own, once per stream

    def start_message(self):
        message = super().start_message()
        message["id"] = self.id
        return message


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_replaces_message_id",
    "factory": Accumulator,
    "features": FEATURES,
}
