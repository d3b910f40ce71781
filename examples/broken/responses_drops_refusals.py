"""Broken on purpose: refusal parts are dropped: `content_part.added` of a `refusal` part and
the `response.refusal.*` events change nothing, so a recovered message loses its refusal.

Modelled on: RQ21: litellm 1.110.2 `OpenAiResponsesToChatCompletionStreamIterator` has no
refusal branch (measured: the refusal becomes an empty `output_text`); Vercel AI's
Responses stream has none either.
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-REFUSAL.
"""

from __future__ import annotations

from _responses_fold import FEATURES, json_object
from _responses_fold import Accumulator as Correct
from _responses_fold import Item as CorrectItem


class Item(CorrectItem):
    def part(self, lists, position, part_type):
        if part_type == "refusal":
            return None  # the bug: refusal deltas and done events are dropped
        return super().part(lists, position, part_type)

    def open_part(self, lists, position, fields):
        found = json_object(fields)
        if found is None or found.get("type") != "refusal":  # the bug: no refusal part
            super().open_part(lists, position, fields)


class Accumulator(Correct):
    Item = Item


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_drops_refusals",
    "factory": Accumulator,
    "features": FEATURES,
}
