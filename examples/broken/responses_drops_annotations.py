"""Broken on purpose: `response.output_text.annotation.added` is ignored, so a recovered
text part has only the annotations its `content_part` events carried.

Modelled on: RQ14: litellm 1.110.2's Responses bridge does not translate the event
(measured); openai-python 3.57.0's running snapshot ignores it; rig#2539, bifrost#5061,
openai-dotnet#505 (SDK 2.2.0 dropped it).
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-ANNOTATIONS.
"""

from __future__ import annotations

from _responses_fold import FEATURES
from _responses_fold import Accumulator as Correct
from _responses_fold import Item as CorrectItem
from _responses_fold import Part as CorrectPart


class Part(CorrectPart):
    def annotate(self, position, annotation):
        """The bug: the annotation is dropped."""


class Item(CorrectItem):
    Part = Part


class Accumulator(Correct):
    Item = Item


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_drops_annotations",
    "factory": Accumulator,
    "features": FEATURES,
}
