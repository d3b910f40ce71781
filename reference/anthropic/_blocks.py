"""Content blocks: opened by index, deltas routed by index and matched by block type.

Each block kind knows which delta types it is defined for (AM-DELTA-MATCH) and builds
its own output; every other block is kept exactly as `content_block_start` sent it.
Text is kept as a list of fragments joined on read, so folding is linear in the stream.
"""

from __future__ import annotations

from typing import Protocol

from .._joined import Joined
from .._json import JSON, JSONObject, copy_json, non_blank, non_negative_int, object_or_none
from ._tool_input import TOOL_BLOCK_TYPES, ToolBlock

__all__ = ["Blocks"]


class _Block(Protocol):
    def apply(self, delta_type: str | None, delta: JSONObject) -> None: ...

    def output(self) -> JSONObject: ...


class _TextBlock:
    """A `text` block: AM-TEXT-JOIN and AM-CITATIONS-APPEND."""

    __slots__ = ("_citations", "_start", "_text")

    def __init__(self, start: JSONObject) -> None:
        self._start = start
        self._text = Joined(start.get("text"))  # AM-TEXT-JOIN: the start's text is real
        self._citations: list[JSONObject] = []

    def apply(self, delta_type: str | None, delta: JSONObject) -> None:
        if delta_type == "text_delta":
            self._text.append(delta.get("text"))  # AM-TEXT-JOIN: verbatim
        elif delta_type == "citations_delta":
            citation = object_or_none(delta.get("citation"))
            if citation is not None:
                self._citations.append(citation)  # AM-CITATIONS-APPEND
        # AM-DELTA-MATCH: any other delta type is not defined for text blocks

    def output(self) -> JSONObject:
        block: JSONObject = copy_json(self._start)
        block["text"] = self._text.text
        if self._citations:
            # AM-CITATIONS-APPEND: after any citations the start event carried
            earlier = block.get("citations")
            block["citations"] = [
                *(earlier if isinstance(earlier, list) else []),
                *copy_json(self._citations),
            ]
        return block


class _ThinkingBlock:
    """A `thinking` block: AM-THINK-JOIN and AM-THINK-SIGNATURE."""

    __slots__ = ("_signature", "_start", "_thinking")

    def __init__(self, start: JSONObject) -> None:
        self._start = start
        self._thinking = Joined(start.get("thinking"))  # AM-THINK-JOIN
        self._signature: str | None = None

    def apply(self, delta_type: str | None, delta: JSONObject) -> None:
        if delta_type == "thinking_delta":
            self._thinking.append(delta.get("thinking"))  # AM-THINK-JOIN: verbatim
        elif delta_type == "signature_delta":
            signature = delta.get("signature")
            if isinstance(signature, str):  # AM-ROB-WRONG-TYPE
                self._signature = signature  # AM-THINK-SIGNATURE: the last one wins
        # AM-DELTA-MATCH: any other delta type is not defined for thinking blocks

    def output(self) -> JSONObject:
        block: JSONObject = copy_json(self._start)
        block["thinking"] = self._thinking.text  # may stay "" (signature-only block)
        if self._signature is not None:
            block["signature"] = self._signature  # else the start's signature stands
        return block


class _AsSentBlock:
    """A block no delta is defined for (AM-RESULT-AS-SENT, AM-REDACTED, AM-UNKNOWN-BLOCK)."""

    __slots__ = ("_start",)

    def __init__(self, start: JSONObject) -> None:
        self._start = start

    def apply(self, delta_type: str | None, delta: JSONObject) -> None:
        """No delta is defined for this block (AM-DELTA-MATCH, AM-UNKNOWN-DELTA)."""

    def output(self) -> JSONObject:
        return copy_json(self._start)  # type: ignore[no-any-return]


def _new_block(start: JSONObject) -> _Block:
    """Pick the block kind by the start's `type` (blank: an unknown block)."""
    block_type = non_blank(start.get("type"))
    if block_type == "text":
        return _TextBlock(start)
    if block_type == "thinking":
        return _ThinkingBlock(start)
    if block_type in TOOL_BLOCK_TYPES:
        return ToolBlock(start)  # AM-SERVER-TOOL: server tools follow the same ladder
    return _AsSentBlock(start)  # AM-RESULT-AS-SENT, AM-REDACTED, AM-UNKNOWN-BLOCK


class Blocks:
    """The Message's content blocks, keyed by index."""

    __slots__ = ("_blocks",)

    def __init__(self) -> None:
        self._blocks: dict[int, _Block] = {}

    def open(self, index: int, content_block: JSON) -> None:
        """Open block `index` with a start value, unless it already holds one."""
        start = object_or_none(content_block)
        if start is None:
            return  # AM-ROB-WRONG-TYPE: a content_block that is not an object opens nothing
        if index in self._blocks:
            return  # AM-BLOCK-REOPEN: the first start wins
        self._blocks[index] = _new_block(start)  # AM-BLOCK-OPEN, AM-UNKNOWN-KEYS: all kept

    def start(self, event: JSONObject) -> None:
        """Fold a `content_block_start` event."""
        index = non_negative_int(event.get("index"))
        if index is not None:  # AM-ROB-WRONG-TYPE: an index of the wrong type opens nothing
            self.open(index, event.get("content_block"))

    def delta(self, event: JSONObject) -> None:
        """Fold a `content_block_delta` event into the block its `index` names."""
        index = non_negative_int(event.get("index"))
        block = None if index is None else self._blocks.get(index)
        if block is None:
            return  # AM-DELTA-ROUTE: no block at that index (or no index): ignored
        delta = object_or_none(event.get("delta"))
        if delta is not None:  # AM-ROB-WRONG-TYPE: a delta that is not an object is none
            # AM-DELTA-MATCH, AM-UNKNOWN-DELTA: a blank type is one no block applies
            block.apply(non_blank(delta.get("type")), delta)

    def output(self) -> list[JSONObject]:
        """The blocks by ascending index, gaps closed up (AM-BLOCK-ORDER)."""
        return [self._blocks[index].output() for index in sorted(self._blocks)]
