"""Broken on purpose: a signed text run still takes fragments of its kind, and a second
`thoughtSignature` is appended to the first, so two signed runs become one part whose
signature is the two opaque strings glued together (which the API rejects on replay).

Modelled on: langchain-google-genai 4.4.3 merges streamed text blocks with langchain-core
1.8.3 `merge_dicts` (`langchain_core/utils/_merge.py`), which concatenates string values
of the same key.
Evidence: /work/shared/research/gemini-fold.md R5, R12.4, R13 (verified: signature
`"U0lHLTE2LUE=U0lHLTE2LUI="`).
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
        if self.signature is not None and signature is not None:
            signature = self.signature + signature  # the bug: str + str concatenates
        self.signature = signature if signature is not None else self.signature


class Candidate(CorrectCandidate):
    TextRun = TextRun


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_concatenates_signatures",
    "factory": Accumulator,
    "features": FEATURES,
}
