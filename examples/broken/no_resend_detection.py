"""Broken on purpose: no re-send detection. A new id starts a new call, anything else is
appended, so whole arguments sent again after they were complete are doubled, as
litellm, the current AI SDK and `@ai-sdk/openai` do.

Source: /work/shared/research/fold-semantics.md Q5 `resend_full_args_in_final` (vLLM's
end-of-stream flush re-sends the whole object) and Q2 (a second whole object on an
index is a second call).
Breaks: TOOL-3-RESEND, TOOL-4-SPLIT.
"""

from __future__ import annotations

from _chat_fold import FEATURES, Choice
from _chat_fold import Accumulator as Correct


class _Choice(Choice):
    def continue_calls(self, calls, fragment):
        current = calls[-1]
        if fragment["id"] and current.id and fragment["id"] != current.id:
            calls.append(self.new_call(fragment))  # several calls share one index
        else:
            current.append(fragment)  # the bug: whole arguments again are appended too


class Accumulator(Correct):
    Choice = _Choice


refold_target = {"name": "no_resend_detection", "factory": Accumulator, "features": FEATURES}
