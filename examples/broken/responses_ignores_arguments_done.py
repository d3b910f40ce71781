"""Broken on purpose: `response.function_call_arguments.done` is ignored, so a call whose
arguments arrive only there (and in no done item) keeps the `""` it was announced with.

Modelled on: RQ3: gpt-5.3-codex-spark sends no argument deltas (litellm#27144);
langchain-openai 1.7.4 `_convert_responses_chunk_to_generation_chunk` has no branch for
`function_call_arguments.done` (reads `""`), litellm 1.110.2's Responses bridge ignores it
(reads `"{}"`).
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-DONE-REPLACES.
"""

from __future__ import annotations

from _responses_fold import FEATURES
from _responses_fold import Accumulator as Correct
from _responses_fold import Item as CorrectItem


class Item(CorrectItem):
    def set_arguments(self, value):
        """The bug: the done value is dropped; only deltas build the arguments."""


class Accumulator(Correct):
    Item = Item


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_ignores_arguments_done",
    "factory": Accumulator,
    "features": FEATURES,
}
