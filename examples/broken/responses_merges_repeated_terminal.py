"""Broken on purpose: a second terminal event is merged into the first as LangChain merges
chunks: strings are concatenated ("completedcompleted") and numbers (usage) added.

Modelled on: RQ19: langchain-openai 1.7.4 with langchain-core 1.8.3: each terminal event
becomes an `AIMessageChunk` whose `response_metadata` and `usage_metadata` `+` merges
(measured: status "completedcompleted", model "gpt-4.1gpt-4.1", input tokens doubled).
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-TERMINAL-REPEAT.
"""

from __future__ import annotations

from _responses_fold import FEATURES
from _responses_fold import Accumulator as Correct


def merged(left, right):
    if isinstance(left, dict) and isinstance(right, dict):
        return {**left, **right, **{k: merged(left[k], right[k]) for k in left if k in right}}
    if (isinstance(left, str) and isinstance(right, str)) or (
        type(left) in (int, float) and type(right) in (int, float)
    ):
        return left + right
    return right


class Accumulator(Correct):
    def on_terminal(self, kind, response):
        earlier = self.terminal
        super().on_terminal(kind, response)
        if earlier is not None and self.terminal is response:  # the bug: merged, not replaced
            self.terminal = {
                k: merged(earlier[k], v) if k in earlier and k != "output" else v
                for k, v in response.items()
            }


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_merges_repeated_terminal",
    "factory": Accumulator,
    "features": FEATURES,
}
