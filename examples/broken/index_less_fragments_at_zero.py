"""Broken on purpose: a tool-call fragment without an `index` always joins index 0, as
litellm's `stream_chunk_builder` does (an index-less fragment reads `index` 0), instead
of the choice's most recently touched index: a call streamed on index 1 whose
continuation fragments lost their index gets them appended to the call on index 0.

Source: /work/shared/research/fold-semantics.md §1.2 and Q1 (LL: "both fragments at
default index 0"; Gemini's OpenAI compatibility layer and older Ollama send no index).
Breaks: TOOL-NO-INDEX.
"""

from __future__ import annotations

from _chat_fold import FEATURES, Choice, json_index
from _chat_fold import Accumulator as Correct


class _Choice(Choice):
    def add_tool_call(self, entry):
        if json_index(entry.get("index")) is None:
            self.last_tool_index = 0  # the bug: index-less means index 0, not the last one
        super().add_tool_call(entry)


class Accumulator(Correct):
    Choice = _Choice


refold_target = {
    "name": "index_less_fragments_at_zero",
    "factory": Accumulator,
    "features": FEATURES,
}
