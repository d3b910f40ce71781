"""Broken on purpose: an `output_item.done` whose item id differs from the id announced at
its `output_index` raises RuntimeError, so providers that rotate item ids fail.

Modelled on: RQ7: openai-python 3.57.0 `accumulate_event` raises "Completed output item
identity changed." (GitHub Copilot / gpt-5.3-codex rotate ids per event: Vercel AI fixture
`github-copilot-id-rotation.1`); function calls are compared by `call_id`, as there.
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-KEY-OUTPUT-INDEX.
"""

from __future__ import annotations

from _responses_fold import FEATURES, json_index, json_object
from _responses_fold import Accumulator as Correct


class Accumulator(Correct):
    def on_done(self, event):
        index, item = json_index(event.get("output_index")), json_object(event.get("item"))
        held = self.items.get(index) if index is not None else None
        if held is not None and item is not None and self.identity(held.base) != \
                self.identity(item):
            raise RuntimeError("Completed output item identity changed.")  # the bug
        super().on_done(event)

    @staticmethod
    def identity(item):
        key = "call_id" if item.get("type") == "function_call" else "id"
        return item.get("type"), item.get(key)


refold_target = {"dialect": "openai-responses", "name": "responses_item_id_must_not_change",
                 "factory": Accumulator, "features": FEATURES}
