"""Broken on purpose: a candidate's `groundingMetadata` is whatever the latest chunk for it
sent, absence included, so grounding that arrives on an early chunk and is not repeated on
the finish chunk is lost.

Modelled on: @ai-sdk/google before vercel/ai PR #13123 read `groundingMetadata` from the
last candidate chunk only (gemini-3.1-flash-image-preview sends it early and never again;
`packages/google/src/google-language-model.ts`); litellm's streaming path lost grounding
metadata too (BerriAI/litellm#10237).
Evidence: /work/shared/research/gemini-fold.md R8, R12.5.
Breaks: GM-GROUNDING.
"""

from __future__ import annotations

import copy

from _gemini_fold import FEATURES
from _gemini_fold import Accumulator as Correct
from _gemini_fold import Candidate as CorrectCandidate


class Candidate(CorrectCandidate):
    def add_grounding(self, metadata):
        self.grounding = copy.deepcopy(metadata)  # the bug: the last chunk's value, whole


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_grounding_from_last_chunk",
    "factory": Accumulator,
    "features": FEATURES,
}
