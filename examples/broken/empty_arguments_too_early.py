"""Broken on purpose: a call with no argument text reads `"{}"` at once, before the
stream has finished, as litellm's builder and the OpenRouter provider substitute it:
a cut-off call is dressed up as a complete one.

Source: /work/shared/research/fold-semantics.md Q11 `no_args_tool_empty_string` and
Q12 (Bedrock-served Claude streams `arguments: ""`).
Breaks: TOOL-EMPTY-ARGS.
"""

from __future__ import annotations

from _chat_fold import FEATURES, Call
from _chat_fold import Accumulator as Correct


class _Call(Call):
    def arguments_out(self, finished):
        return self.arguments or "{}"  # the bug: "{}" before the stream finished too


class Accumulator(Correct):
    Call = _Call


refold_target = {"name": "empty_arguments_too_early", "factory": Accumulator, "features": FEATURES}
