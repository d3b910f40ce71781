"""Broken on purpose: every chunk's `safetyRatings` are appended to the folded list, never
merged by category, so a list resent on every chunk is repeated once per chunk.

Modelled on: langchain-google-genai 4.4.3 merges each chunk's `generation_info` (which
holds `safety_ratings`) with langchain-core 1.8.3 `merge_dicts` / `merge_lists`
(`langchain_core/utils/_merge.py`): lists of entries without an `index` are concatenated.
Evidence: /work/shared/research/gemini-fold.md R8, R12.4, R13 (verified: 9 safety ratings
instead of 4).
Breaks: GM-SAFETY.
"""

from __future__ import annotations

import copy

from _gemini_fold import FEATURES, json_list
from _gemini_fold import Accumulator as Correct
from _gemini_fold import Candidate as CorrectCandidate


class Candidate(CorrectCandidate):
    def add_safety_ratings(self, ratings):
        for rating in json_list(ratings):
            if isinstance(rating, dict):
                self.safety[len(self.safety)] = copy.deepcopy(rating)  # the bug: appended


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_appends_safety_ratings",
    "factory": Accumulator,
    "features": FEATURES,
}
