"""Broken on purpose: a text block starts empty whatever `content_block_start` carried, so
initial text on the start event is lost.

Modelled on: AQ24 (case 25, " is 42."): @ai-sdk/anthropic 3.0.140 turns a text
start into a `text-start` part without its `text`; langchain PR #38442 fixed the same
loss in langchain-anthropic (a dropped opening `<canvaspreview>`), earendil-works/pi#7283.
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-TEXT-JOIN.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES, json_index
from _anthropic_fold import Accumulator as Correct


def _without_text(content_block):
    """The bug: a text block's start on content_block_start loses the text it carries."""
    if isinstance(content_block, dict) and content_block.get("type") == "text":
        return {**content_block, "text": ""}
    return content_block


class Accumulator(Correct):
    def block_start(self, event):
        index = json_index(event.get("index"))
        if index is not None:
            self.open(index, _without_text(event.get("content_block")))


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_drops_start_text",
    "factory": Accumulator,
    "features": FEATURES,
}
