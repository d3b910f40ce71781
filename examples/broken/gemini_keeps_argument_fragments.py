"""Broken on purpose: `partialArgs` and `willContinue` are not read: every functionCall part
is kept whole, so a call Vertex streams in fragments stays a named call without arguments
followed by nameless fragments, never one call with its arguments.

Modelled on: langchain-google-genai 4.4.3 turns each `functionCall` part into its own
`tool_call_chunk(name, json.dumps(args), id, index=None)` and reads neither `partial_args`
nor `will_continue` (`langchain_google_genai/chat_models.py`); pydantic-ai 2.68.0 `_map_part`
makes every functionCall part a new tool call; google-genai 2.34.0 `Chat` keeps the
fragments as they came (and raises replaying them to the Gemini API).
Evidence: /work/shared/research/gemini-fold.md R6, R12.1, R12.4, R12.6, R13.
Breaks: GM-CALL-STREAMED, GM-CALL-PARTIAL-ARGS.
"""

from __future__ import annotations

from _gemini_fold import FEATURES, WholePart
from _gemini_fold import Accumulator as Correct
from _gemini_fold import Candidate as CorrectCandidate


class Candidate(CorrectCandidate):
    def add_function_call(self, part):
        self.parts.append(WholePart(part))  # the bug: fragments are never assembled


class Accumulator(Correct):
    Candidate = Candidate


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_keeps_argument_fragments",
    "factory": Accumulator,
    "features": FEATURES,
}
