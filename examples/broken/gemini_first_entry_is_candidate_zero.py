"""Broken on purpose: only the first entry of each chunk's `candidates` is read, and it is
taken as candidate 0 whatever its `index`: a chunk that carries only candidate 1 has its
text spliced into candidate 0, and other entries are dropped.

Modelled on: @ai-sdk/google 3.0.141 `GoogleGenerativeAILanguageModel.doStream` reads
`value.candidates?.[0]` (vercel/ai `packages/google/src/google-language-model.ts`); the same
`candidates[0]` in langchain-google-genai 4.4.3 (`generations[0]`), pydantic-ai 2.68.0
`GeminiStreamedResponse._map_chunk` and google-genai 2.34.0 `Chat.send_message_stream`.
Evidence: /work/shared/research/gemini-fold.md R12.3, R13 (verified: candidate 1's text
spliced into 0).
Breaks: GM-CAND-INDEX, GM-CAND-ORDER, GM-ROB-NULL-ENTRIES, GM-LIFE-TRUNCATED. A null first
entry is read as the chunk's candidate, hiding the entry after it; a candidate never read
cannot keep a cut stream unfinished.
"""

from __future__ import annotations

from _gemini_fold import FEATURES
from _gemini_fold import Accumulator as Correct


class Accumulator(Correct):
    def add_candidates(self, entries):
        first = entries[0] if entries else None  # the bug: candidates[0] only
        if isinstance(first, dict):
            self.add_candidate({**first, "index": 0})  # the bug: its index is not read


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_first_entry_is_candidate_zero",
    "factory": Accumulator,
    "features": FEATURES,
}
