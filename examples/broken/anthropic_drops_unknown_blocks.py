"""Broken on purpose: a block whose type it does not know is dropped, so the blocks after
it move up one place.

Modelled on: AQ21 (case 22): litellm 1.110.2 drops the unknown block (its
chunk parser has no field for it); @ai-sdk/anthropic 3.0.140 fails validation instead.
Known here: the block union of anthropic-python 2.14.0 `types/content_block.py`, plus
`mcp_tool_use`.
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-UNKNOWN-BLOCK, AM-RESULT-AS-SENT.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES, TOOL_TYPES
from _anthropic_fold import Accumulator as Correct

KNOWN_BLOCKS = (
    "text",
    "thinking",
    "redacted_thinking",
    *TOOL_TYPES,
    "web_search_tool_result",
    "web_fetch_tool_result",
    "code_execution_tool_result",
    "bash_code_execution_tool_result",
    "text_editor_code_execution_tool_result",
    "tool_search_tool_result",
    "container_upload",
)


class Accumulator(Correct):
    def open(self, index, content_block):
        if isinstance(content_block, dict) and content_block.get("type") not in KNOWN_BLOCKS:
            return  # the bug: an unknown block is dropped instead of kept
        super().open(index, content_block)


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_drops_unknown_blocks",
    "factory": Accumulator,
    "features": FEATURES,
}
