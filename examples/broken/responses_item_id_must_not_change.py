"""Broken on purpose: an `output_item.done` whose item id differs from the id its
`output_item.added` announced at that `output_index` raises RuntimeError, so providers
that rotate item ids fail.

Modelled on: RQ7: openai-python 3.57.0 `accumulate_event` raises "Completed output item
identity changed." (GitHub Copilot / gpt-5.3-codex rotate ids per event: Vercel AI fixture
`github-copilot-id-rotation.1`); function calls are compared by `call_id`, as there.
A done item whose id names another announced item (two items at one index, or a drifted
index, RQ13) is that item finishing (RS-ROUTE routes it there), and one of another type is
another item (RS-ITEM-DONE-REPLACES), not an id that changed: only an item of the announced
type with an identity never announced (nor finished) raises, the rotation defect alone.
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-KEY-OUTPUT-INDEX.
"""

from __future__ import annotations

from _responses_fold import FEATURES, json_index, json_object
from _responses_fold import Accumulator as Correct


def identity(item):
    key = "call_id" if item.get("type") == "function_call" else "id"
    return item.get("type"), item.get(key)


class Accumulator(Correct):
    def __init__(self):
        super().__init__()
        self.added_items = {}  # output_index -> the identity announced there
        self.identities = []  # every identity announced or finished (an id may be any JSON)

    def on_added(self, event):
        super().on_added(event)
        index, item = json_index(event.get("output_index")), json_object(event.get("item"))
        if index is not None and item is not None:
            self.added_items[index] = identity(item)
            self.identities.append(identity(item))

    def on_done(self, event):
        index, item = json_index(event.get("output_index")), json_object(event.get("item"))
        added = self.added_items.get(index)
        if (
            item is not None
            and added is not None
            and added[0] == item.get("type")
            and (identity(item) not in self.identities)
        ):
            raise RuntimeError("Completed output item identity changed.")  # the bug
        if item is not None:
            self.identities.append(identity(item))
        super().on_done(event)


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_item_id_must_not_change",
    "factory": Accumulator,
    "features": FEATURES,
}
