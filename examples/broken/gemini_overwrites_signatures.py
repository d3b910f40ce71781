"""Broken on purpose: a signed text run still takes fragments of its kind, and a later
`thoughtSignature` overwrites the earlier one: two signed runs become one part carrying
only the last signature, the first lost.

Modelled on: @ai-sdk/google 3.0.141 `doStream` sends every non-thought text delta, signed
or not, into the one open text block, whose provider metadata each signed delta replaces
(vercel/ai `packages/google/src/google-language-model.ts`).
Evidence: /work/shared/research/gemini-fold.md R5, R12.3, R13 (verified: "two signed deltas
-> one block, first signature overwritten").
Breaks: GM-SIGNATURE, GM-TEXT-JOIN.
"""

from __future__ import annotations

from _gemini_fold import FEATURES
from _gemini_fold import Accumulator as Correct
from _gemini_fold import Candidate as CorrectCandidate
from _gemini_fold import TextRun as CorrectTextRun


class TextRun(CorrectTextRun):
    def takes(self, thought):
        return self.thought == thought  # the bug: a signed run is not closed

    def append(self, text, signature):
        self.text += text
        if signature is not None:
            self.signature = signature  # the bug: the earlier signature is overwritten


class Candidate(CorrectCandidate):
    TextRun = TextRun


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_overwrites_signatures",
    "factory": Accumulator,
    "features": FEATURES,
}
