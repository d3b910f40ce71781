"""Broken on purpose: each `partial_json` fragment is parsed on its own: a fragment that is
a whole JSON object replaces the input, any other is dropped, so an input streamed in
several fragments stays `{}` (and invalid input is never kept).

Modelled on: AQ8: bojieli/ai-agent-book#194 ("every multi-fragment input became
{}", the book's agent code at that issue) and cubeplexai/cubeloop#108 (arguments empty
at toolcall_end); no released SDK probed does it (all concatenate first, case 11).
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-TOOL-JOIN, AM-TOOL-INVALID, AM-SERVER-TOOL, AM-TOOL-NO-DELTA.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES, Block, whole_object
from _anthropic_fold import Accumulator as Correct


class _Block(Block):
    def add_input(self, partial_json):
        # The bug: each fragment parsed alone; a whole object replaces the input.
        self.input = [partial_json] if whole_object(partial_json) is not None else self.input


class Accumulator(Correct):
    Block = _Block


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_parses_each_fragment",
    "factory": Accumulator,
    "features": FEATURES,
}
