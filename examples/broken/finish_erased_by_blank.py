"""Broken on purpose: the last non-null `finish_reason` wins, so a later `""` erases
`"stop"`, and `""` alone counts as finished, as the AI SDK's openai-compatible
provider, `@ai-sdk/openai` and the OpenRouter provider read it (they map `""` to
finish `other`).

Source: /work/shared/research/fold-semantics.md Q13 `finish_then_empty_string` and
`empty_string_finish_reason` (Ollama sends `""` on every chunk).
Breaks: CHOICE-FINISH, ROB-BLANK, LIFE-FINISHED.
"""

from __future__ import annotations

from _chat_fold import FEATURES, Choice, nonblank
from _chat_fold import Accumulator as Correct


class _Choice(Choice):
    def add_finish_reason(self, entry):
        if isinstance(entry.get("finish_reason"), str):
            self.finish_reason = entry["finish_reason"]  # the bug: "" counts as a reason
        self.native_finish_reason = (
            nonblank(entry.get("native_finish_reason")) or self.native_finish_reason
        )


class Accumulator(Correct):
    Choice = _Choice


refold_target = {"name": "finish_erased_by_blank", "factory": Accumulator, "features": FEATURES}
