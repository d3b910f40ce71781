"""Broken on purpose: an item event for an `output_index` no `output_item.added` announced
raises RuntimeError instead of opening a placeholder item there.

Modelled on: RQ5: openai-python 3.57.0 `ResponseStreamState._get_output_item` raises
"Received a content event for output index … before receiving its output item"
(openai-python#2852; gpt-oss harmony path, litellm#36375); openai-node 7.5.0 throws
"missing output at index …". The done item alone is recorded, as openai-python does.
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-ORPHAN.
"""

from __future__ import annotations

from _responses_fold import FEATURES, json_index
from _responses_fold import Accumulator as Correct


class Accumulator(Correct):
    def on_item_event(self, event, spec):
        index = json_index(event.get("output_index"))
        if index is not None and index not in self.items:  # the bug: no placeholder
            raise RuntimeError(f"Received a content event for output index {index} before "
                               f"receiving its output item")
        super().on_item_event(event, spec)


refold_target = {"dialect": "openai-responses", "name": "responses_orphan_content_raises",
                 "factory": Accumulator, "features": FEATURES}
