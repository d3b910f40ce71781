"""Broken on purpose: every text block is merged into the first one (texts joined,
citations appended), so a Message with two text blocks comes back with one.

Modelled on: AQ14 and AQ21 (cases 05, 22): litellm 1.110.2 folds the stream into
one OpenAI `content` string, and its Anthropic adapter
(`translate_openai_response_to_anthropic`) returns a single text block. (litellm also
moves that block after the tool blocks; this fold keeps it in the first one's place.)
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-BLOCK-OPEN, AM-TEXT-JOIN, AM-CITATIONS-APPEND.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES
from _anthropic_fold import Accumulator as Correct


class Accumulator(Correct):
    def content(self):
        """The bug: the text of every text block goes into the first text block."""
        content, first = [], None
        for block in (self.blocks[i] for i in sorted(self.blocks)):
            output = block.output()
            if block.kind != "text":
                content.append(output)
            elif first is None:
                first = output
                content.append(first)
            else:
                first["text"] += output["text"]
                if output.get("citations"):
                    first["citations"] = [*first.get("citations", []), *output["citations"]]
        return content


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_merges_text_blocks",
    "factory": Accumulator,
    "features": FEATURES,
}
