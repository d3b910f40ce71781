"""Broken on purpose: a part is read through a fixed list of fields: keys outside it are
dropped, and a part left with none (a `toolCall`, a part of a kind added later) is dropped
whole; a text part that loses its extra key becomes plain text and joins its neighbours.

Modelled on: google-genai 2.34.0 parses every chunk into its pydantic `Part` model
(`google/genai/types.py`), which drops unknown keys silently: a part of an unknown kind
becomes `Part()`, and `Chat` then treats the turn as invalid (`_validate_response`).
Evidence: /work/shared/research/gemini-fold.md R11, R12.1, R13 (probed).
Breaks: GM-PART-OTHER, GM-UNKNOWN-KEYS, GM-TEXT-JOIN.
"""

from __future__ import annotations

from _gemini_fold import FEATURES
from _gemini_fold import Accumulator as Correct
from _gemini_fold import Candidate as CorrectCandidate

PART_FIELDS = frozenset(
    {
        "text",
        "thought",
        "thoughtSignature",
        "inlineData",
        "fileData",
        "functionCall",
        "functionResponse",
        "executableCode",
        "codeExecutionResult",
        "videoMetadata",
    }
)
"""The `Part` fields the model knows; any other key is dropped on parsing."""


class Candidate(CorrectCandidate):
    def add_part(self, part):
        if isinstance(part, dict):
            part = {k: v for k, v in part.items() if k in PART_FIELDS}  # the bug
        super().add_part(part)


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_drops_unknown_parts",
    "factory": Accumulator,
    "features": FEATURES,
}
