"""Broken on purpose: every repeated string is concatenated, as openai-python's generic
`accumulate_delta` does (str + str -> concatenation, for `role`, tool `id` and
`function.name` as well as for text).

Source: /work/shared/research/fold-semantics.md §1.1 and Q6, Q8 (Ollama and Fireworks
repeat role/id/name on every fragment; openai-python folds `assistantassistant`,
`call_1call_1`, `searchsearch`).
Breaks: CHOICE-ROLE, TOOL-NAME, TOOL-5-APPEND (a repeated id no longer matches the
concatenated one, so the next fragment starts a new call instead of appending).
"""

from __future__ import annotations

from _chat_fold import FEATURES, Call, Choice
from _chat_fold import Accumulator as Correct


class _Call(Call):
    def append(self, fragment):
        self.id = (self.id or "") + (fragment["id"] or "") or None  # the bug: id + id
        self.type = self.type or fragment["type"]
        self.name = (self.name or "") + (fragment["name"] or "") or None  # and name + name
        self.arguments += fragment["arguments"] or ""


class _Choice(Choice):
    def add_role(self, delta):
        if isinstance(delta.get("role"), str):
            self.role = (self.role or "") + delta["role"]  # the bug: role + role


class Accumulator(Correct):
    Choice = _Choice
    Call = _Call


refold_target = {
    "name": "concatenate_repeated_strings",
    "factory": Accumulator,
    "features": FEATURES,
}
