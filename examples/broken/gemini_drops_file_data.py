"""Broken on purpose: `fileData` parts are dropped from the folded content.

Modelled on: @ai-sdk/google 3.0.141 `doStream` has branches for text, thought text,
`inlineData`, `executableCode`, `codeExecutionResult` and `functionCall` parts and none for
`fileData` (vercel/ai `packages/google/src/google-language-model.ts`), so a streamed file
reference never reaches the result.
Evidence: /work/shared/research/gemini-fold.md R12.3, R13 ("no branch in `doStream`").
Breaks: GM-INLINE.
"""

from __future__ import annotations

from _gemini_fold import FEATURES
from _gemini_fold import Accumulator as Correct
from _gemini_fold import Candidate as CorrectCandidate


class Candidate(CorrectCandidate):
    def add_part(self, part):
        if isinstance(part, dict) and "fileData" in part:
            return  # the bug: no branch for fileData parts
        super().add_part(part)


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_drops_file_data",
    "factory": Accumulator,
    "features": FEATURES,
}
