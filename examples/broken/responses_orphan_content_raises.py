"""Broken on purpose: an item event for an `output_index` no `output_item.added` announced
raises RuntimeError instead of opening a placeholder item there.

Modelled on: RQ5: openai-python 3.57.0 `ResponseStreamState._get_output_item` raises
"Received a content event for output index … before receiving its output item"
(openai-python#2852; gpt-oss harmony path, litellm#36375); openai-node 7.5.0 throws
"missing output at index …". The done item alone is recorded, as openai-python does. An
event whose item_id names an announced item goes to it (RS-ROUTE), whatever its index.
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-ORPHAN.
"""

from __future__ import annotations

from _responses_fold import FEATURES, json_index, nonblank
from _responses_fold import Accumulator as Correct


class Accumulator(Correct):
    def on_item_event(self, event, spec):
        # an event naming an announced item is that item's (RS-ROUTE), whatever its index
        index = json_index(event.get("output_index"))
        named = nonblank(event.get("item_id")) in self.announced
        if index is not None and index not in self.items and not named:  # the bug
            raise RuntimeError(
                f"Received a content event for output index {index} before "
                f"receiving its output item"
            )
        super().on_item_event(event, spec)


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_orphan_content_raises",
    "factory": Accumulator,
    "features": FEATURES,
}
