"""Broken on purpose: answer text joins the last answer text run even when a function call
or another part came after it, so the text after a call is glued to the text before it
and the call moves after both.

Modelled on: @ai-sdk/google 3.0.141 `doStream` keeps one text block open for every
non-thought text delta and handles a chunk's function calls in a second loop, without
closing the text block (vercel/ai `packages/google/src/google-language-model.ts`).
Evidence: /work/shared/research/gemini-fold.md R12.3, R13 (verified: "text after a function
call joins the text before it").
Breaks: GM-TEXT-JOIN.
"""

from __future__ import annotations

from _gemini_fold import FEATURES, TextRun
from _gemini_fold import Accumulator as Correct
from _gemini_fold import Candidate as CorrectCandidate


class Candidate(CorrectCandidate):
    def joinable_run(self, thought):
        if thought:
            return super().joinable_run(thought)
        runs = [part for part in self.parts if isinstance(part, TextRun)]
        last = runs[-1] if runs else None  # the bug: calls and other parts are skipped
        return last if last is not None and last.takes(thought) else None


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_text_joins_across_calls",
    "factory": Accumulator,
    "features": FEATURES,
}
