"""Broken on purpose: `response.reasoning_text.delta` / `.done` are ignored, so a reasoning
item's `content` text (gpt-oss's raw reasoning) is lost when the item is recovered.

Modelled on: RQ20: openai-python 3.57.0's `accumulate_event` has no branch for reasoning
text (openai-python PR #3397, closed); langchain-openai 1.7.4 has none either (measured: the
item keeps the empty text it was announced with).
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-REASONING-TEXT.
"""

from __future__ import annotations

from _responses_fold import FEATURES
from _responses_fold import Accumulator as Correct
from _responses_fold import Item as CorrectItem


class Item(CorrectItem):
    def part(self, lists, position, part_type):
        if part_type == "reasoning_text":
            return None  # the bug: reasoning text events change nothing
        return super().part(lists, position, part_type)


class Accumulator(Correct):
    Item = Item


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_ignores_reasoning_text",
    "factory": Accumulator,
    "features": FEATURES,
}
