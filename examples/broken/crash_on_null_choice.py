"""Broken on purpose: every entry of `choices` is assumed to be an object, so
`"choices": [null]` raises AttributeError, as in openai-python, litellm and LangChain.

Source: /work/shared/research/fold-semantics.md Q20 `null_inside_choices` (all three
Python libraries raise).
Breaks: ROB-NULL-ENTRIES, ROB-WRONG-TYPE.
"""

from __future__ import annotations

from _chat_fold import FEATURES, json_index
from _chat_fold import Accumulator as Correct


class Accumulator(Correct):
    def add_choices(self, choices):
        for entry in choices if isinstance(choices, list) else []:
            # the bug: every entry is taken for an object, so None.get raises
            self.choice(json_index(entry.get("index")) or 0).add(entry)


refold_target = {"name": "crash_on_null_choice", "factory": Accumulator, "features": FEATURES}
