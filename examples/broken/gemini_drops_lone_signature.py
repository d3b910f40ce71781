"""Broken on purpose: an empty answer text part that carries only a `thoughtSignature` is
dropped unless an answer text run is open before it, so the signature that follows thought
summaries, a function call or an image is lost.

Modelled on: @ai-sdk/google 3.0.141 `doStream` emits an empty signed text part as a
`text-delta ""` with provider metadata only when a text block is open, and otherwise drops
it (vercel/ai `packages/google/src/google-language-model.ts`).
Evidence: /work/shared/research/gemini-fold.md R5, R12.3, R13 (verified).
Breaks: GM-SIGNATURE.
"""

from __future__ import annotations

from _gemini_fold import FEATURES, TextRun
from _gemini_fold import Accumulator as Correct
from _gemini_fold import Candidate as CorrectCandidate


class Candidate(CorrectCandidate):
    def add_text(self, part):
        if part["text"] == "" and part.get("thought") is not True and not self.text_open():
            return  # the bug: no open text block, so the signature has nowhere to go
        super().add_text(part)

    def text_open(self):
        previous = self.parts[-1] if self.parts else None
        return isinstance(previous, TextRun) and not previous.thought


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_drops_lone_signature",
    "factory": Accumulator,
    "features": FEATURES,
}
