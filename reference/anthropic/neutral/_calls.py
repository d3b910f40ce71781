"""The Anthropic tool_use blocks followed event by event, and the public text in the order
it arrived (refold.reference._neutral.ends, "how the frames of a stream end")."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..._json import JSONObject, non_blank, non_negative_int
from ..._neutral.ends import StreamEnd, arguments_value

__all__ = ["MessageCalls", "TextArrival"]


@dataclass
class _Block:
    call_id: str
    parts: list[str] = field(default_factory=list)
    stopped: bool = False


@dataclass
class MessageCalls:
    """The Anthropic tool_use blocks, followed event by event."""

    blocks: dict[int, _Block] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    order: list[str] = field(default_factory=list)  # completed call ids, in that order
    started: bool = False  # a message_start was read (AM-BEFORE-START, AM-START-ONCE)

    def track(self, frame: JSONObject, number: int) -> StreamEnd | None:
        """The end this frame decides, or None."""
        index = non_negative_int(frame.get("index"))
        kind, block, delta = frame.get("type"), frame.get("content_block"), frame.get("delta")
        if kind == "message_start" and not self.started:
            self.started = True
            return self._start_content(frame, number)
        if index is None or not self.started:
            return None
        if (
            kind == "content_block_start"
            and isinstance(block, dict)
            and index not in self.blocks
            and block.get("type") == "tool_use"
        ):
            return self._start(index, block, number)
        tool = self.blocks.get(index)
        if tool is None:
            return None
        if (
            kind == "content_block_delta"
            and isinstance(delta, dict)
            and delta.get("type") == "input_json_delta"
            and isinstance(delta.get("partial_json"), str)
        ):
            if tool.stopped and delta["partial_json"]:
                return StreamEnd(
                    "inconsistent_tool_arguments",
                    number,
                    number + 1,
                    tool.call_id,
                    "EV-NO-DELTA-AFTER-COMPLETED",
                )
            tool.parts.append(delta["partial_json"])
        elif kind == "content_block_stop" and not tool.stopped:
            tool.stopped = True
            return self._stop(tool, number)
        return None

    def finish(self, number: int) -> StreamEnd | None:
        """message_stop: blocks never stopped complete here, in index order."""
        for index in sorted(self.blocks):
            tool = self.blocks[index]
            if not tool.stopped:
                tool.stopped = True
                bad = self._stop(tool, number)
                if bad is not None:
                    return bad
        return None

    def _start_content(self, frame: JSONObject, number: int) -> StreamEnd | None:
        """AM-START-CONTENT: finished blocks inside message_start complete there."""
        message = frame.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        for index, block in enumerate(content if isinstance(content, list) else []):
            if isinstance(block, dict) and block.get("type") == "tool_use":
                bad = self._start(index, block, number) or self.finish(number)
                if bad is not None:
                    return bad
        return None

    def _start(self, index: int, block: JSONObject, number: int) -> StreamEnd | None:
        call_id, name = non_blank(block.get("id")), non_blank(block.get("name"))
        if call_id is None or name is None:
            return StreamEnd("unsupported", number, number, call_id, "EV-CALL-STARTED")
        if call_id in self.seen:
            return StreamEnd("unsupported", number, number, call_id, "EV-IDS-SINGLE-USE")
        self.seen.add(call_id)
        self.blocks[index] = _Block(call_id)
        return None

    def _stop(self, tool: _Block, number: int) -> StreamEnd | None:
        joined = "".join(tool.parts)
        if arguments_value(joined) is None:
            return StreamEnd("invalid_tool_arguments", number, number, tool.call_id)
        self.order.append(tool.call_id)
        return None


@dataclass
class TextArrival:
    """The public text of a fold's text blocks, in the order it arrived.

    Fed the text of every text block after each frame (in the fold's order): what grew
    or appeared since the last frame is the frame's text, in block order."""

    pieces: list[str] = field(default_factory=list)
    _last: list[str] = field(default_factory=list)

    def see(self, texts: list[str]) -> None:
        """Record the text blocks after one frame (a frame opens or grows one block; the
        first message_start may open several)."""
        last, self._last = self._last, list(texts)
        if len(texts) == len(last):
            self.pieces += [
                new[len(old) :] for new, old in zip(texts, last, strict=True) if new != old
            ]
            return
        for at in range(len(texts)):
            if texts[:at] == last[:at] and texts[at + 1 :] == last[at:]:
                self.pieces.append(texts[at])
                return
        self.pieces += texts[len(last) :]  # several blocks at once: only after none

    @property
    def text(self) -> str:
        return "".join(self.pieces)
