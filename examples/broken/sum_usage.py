"""Broken on purpose: usage objects are summed across chunks, as LangChain's `add_usage`
does when `AIMessageChunk`s are added together.

Source: /work/shared/research/fold-semantics.md §1.3 and Q14 (Fireworks, LiteLLM and
vLLM report cumulative usage on every chunk; summing over-counted one run to 193M
tokens).
Breaks: USAGE-LAST.
"""

from __future__ import annotations

from _chat_fold import FEATURES
from _chat_fold import Accumulator as Correct


def _add_usage(total, usage):
    """Token counts add up across chunks; nested details add up field by field."""
    result = dict(total)
    for key, value in usage.items():
        if isinstance(value, dict):
            previous = result.get(key)
            result[key] = _add_usage(previous if isinstance(previous, dict) else {}, value)
        elif (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and isinstance(result.get(key), int | float)
        ):
            result[key] = result[key] + value
        else:
            result[key] = value
    return result


class Accumulator(Correct):
    def add_usage(self, chunk):
        if isinstance(chunk.get("usage"), dict):
            self.usage = _add_usage(self.usage or {}, chunk["usage"])  # the bug: summed


refold_target = {"name": "sum_usage", "factory": Accumulator, "features": FEATURES}
