"""Broken on purpose: tool-call fragments are grouped by `index` alone, one call per index,
as litellm's `stream_chunk_builder` (`get_combined_tool_content`) does: calls that
share an index (or have none) are merged into one call with concatenated arguments.

Source: /work/shared/research/fold-semantics.md §1.2, Q1a `no_index_two_calls` and Q2
`all_index0_distinct_ids` (Ollama, Gemini translators, Bedrock send several calls on
index 0).
Breaks: TOOL-2-NEW-ID, TOOL-3-RESEND, TOOL-4-SPLIT, TOOL-NO-INDEX.
"""

from __future__ import annotations

from _chat_fold import FEATURES, Choice
from _chat_fold import Accumulator as Correct


class _Choice(Choice):
    def continue_calls(self, calls, fragment):
        calls[-1].append(fragment)  # the bug: one call per index


class Accumulator(Correct):
    Choice = _Choice


refold_target = {"name": "merge_calls_sharing_index", "factory": Accumulator, "features": FEATURES}
