"""Broken on purpose: a choice is keyed by its position in the chunk's `choices` list, not
by its `index` value, the assumption behind LangChain's and the AI SDK's `choices[0]`
and openai-python's `choices[choice.index]` list indexing.

Source: /work/shared/research/fold-semantics.md Q16 (`n2_interleaved`,
`choice_index_1_first`: text of different choices merged into one, or IndexError).
Breaks: CHOICE-KEY, CHOICE-ORDER.
"""

from __future__ import annotations

from _chat_fold import FEATURES
from _chat_fold import Accumulator as Correct


class Accumulator(Correct):
    def add_choices(self, choices):
        for index, entry in enumerate(choices if isinstance(choices, list) else []):
            if isinstance(entry, dict):
                self.choice(index).add(entry)  # the bug: the position, not entry["index"]


refold_target = {"name": "choices_by_position", "factory": Accumulator, "features": FEATURES}
