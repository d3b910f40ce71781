"""Broken on purpose: the terminal response's `output` is taken whenever it is a list, so
`response.completed` with `output: []` wipes every item the stream announced and finished.

Modelled on: RQ1: openai-python 3.57.0 `ResponseStreamState.accumulate_event` recovers the
output from the `output_item.done` items only when the terminal's `output` is None, so the
ChatGPT/Codex backend's `output: []` stays empty (openai-node 7.5.0 likewise replaces its
snapshot with the terminal response); litellm#26075, open-webui#27800.
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-OUTPUT-RECOVER.
"""

from __future__ import annotations

from _responses_fold import FEATURES
from _responses_fold import Accumulator as Correct


class Accumulator(Correct):
    def output(self):
        output = self.terminal.get("output")
        if isinstance(output, list):  # the bug: an empty list is taken as the output
            return list(output)
        return super().output()


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_keeps_empty_terminal_output",
    "factory": Accumulator,
    "features": FEATURES,
}
