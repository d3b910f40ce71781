"""Broken on purpose: a function call does not close the answer text run before it, so the
text after a call is glued to the text before it and the call moves after both.

Modelled on: @ai-sdk/google 3.0.141 `doStream` keeps one text block open for every
non-thought text delta and handles a chunk's function calls in a second loop, without
closing the text block (vercel/ai `packages/google/src/google-language-model.ts`).
Evidence: /work/shared/research/gemini-fold.md R12.3, R13 (verified: "text after a function
call joins the text before it").
Breaks: GM-TEXT-JOIN, GM-SIGNATURE. The finish chunk's signed empty part after a call is
glued onto the text before the call (R5); the call itself stays whole and in place.
"""

from __future__ import annotations

from _gemini_fold import FEATURES, StreamedCall, TextRun
from _gemini_fold import Accumulator as Correct
from _gemini_fold import Candidate as CorrectCandidate


class Candidate(CorrectCandidate):
    def joinable_run(self, thought):
        if thought:
            return super().joinable_run(thought)
        before = [part for part in self.parts if not is_call(part)]  # the bug: calls skipped
        previous = before[-1] if before else None
        return previous if isinstance(previous, TextRun) and previous.takes(thought) else None


def is_call(part):
    """A function call part, whole or streamed: it does not close the open text block."""
    return isinstance(part, StreamedCall) or "functionCall" in getattr(part, "part", {})


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_text_joins_across_calls",
    "factory": Accumulator,
    "features": FEATURES,
}
