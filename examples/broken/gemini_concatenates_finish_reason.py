"""Broken on purpose: a finish reason sent again is appended to the folded one, so a
candidate whose `finishReason` arrives on two chunks finishes with `"STOPSTOP"`.

Modelled on: langchain-google-genai 4.4.3 merges each chunk's `generation_info` into
`response_metadata` with langchain-core 1.8.3 `merge_dicts`
(`langchain_core/utils/_merge.py`), which concatenates string values; the
`ChatGoogleGenerativeAI` class docstring itself shows `"finish_reason": "STOPSTOP"` for an
assembled stream.
Evidence: /work/shared/research/gemini-fold.md R12.4, R13.
Breaks: GM-FINISH.
"""

from __future__ import annotations

from _gemini_fold import FEATURES, nonblank
from _gemini_fold import Accumulator as Correct
from _gemini_fold import Candidate as CorrectCandidate


class Candidate(CorrectCandidate):
    def add_finish_reason(self, reason):
        if nonblank(reason) is not None and self.finish_reason is not None:
            reason = self.finish_reason + reason  # the bug: str + str concatenates
        super().add_finish_reason(reason)


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_concatenates_finish_reason",
    "factory": Accumulator,
    "features": FEATURES,
}
