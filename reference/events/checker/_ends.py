"""How the frames of a stream end, call by call: the outcome a faithful adapter must give.

The dialect folds decide what each frame does to the calls; these trackers read the
calls after each frame and tell where the frames stop admitting a completed turn:
arguments that are not an object at a call's boundary (EV-ARGS-INVALID), a call no
ToolCallStarted can announce (no id or name, or an id already used: EV-CALL-STARTED,
EV-IDS-SINGLE-USE, outcome `unsupported`), a call changed after it completed
(EV-NO-DELTA-AFTER-COMPLETED: EV-ARGS-DELTA would need a delta it forbids, outcome
`inconsistent_tool_arguments`). Each `StreamEnd` names the rule charged when an adapter
gives another outcome.

Decision (Chat calls opened after choice 0's last finish reason, chat-fold split family
8): the frames are not truncated, since choice 0 has a finish reason (EV-TRUNCATED's own
test); such calls complete at `[DONE]` or at the end of the body, before Completed, so
their arguments are judged there (see `_chat`, where the reference applies it).

Decision (EV-FOLD-AGREES vs EV-TEXT-CONSERVE and EV-FRAME-ORDER, for Anthropic blocks that
arrive out of index order, or Chat calls completed at different finish frames): the fold
lists text blocks and calls by index, but TextDelta and ToolCallCompleted events follow
the frames (no look-ahead), and T is their fold (EV-TEXT-CONSERVE, PERSIST-PORTABLE), so
no adapter can reorder them. "The fold's public text" and "the fold's calls" are read in
the order the frames give them: text in the order it arrived (`TextArrival`), calls in the
order they reached their boundary (the `order` of the trackers). On every stream whose
blocks come in index order (all Anthropic sends, every lossless family) the two readings
are one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import parse_complete
from ..._json import JSON, JSONObject, non_blank, non_negative_int

__all__ = ["ChatCalls", "MessageCalls", "StreamEnd", "TextArrival", "arguments_value"]


@dataclass(frozen=True)
class StreamEnd:
    """How the frames end: the outcome they call for and the frame that decides it.

    `kind` is `completed` or an error kind of the protocol (`truncated`, `provider_error`,
    `invalid_tool_arguments`, `unsupported`, `inconsistent_tool_arguments`); `frame` is
    the deciding frame (None: the end of the body); frames before `cover` must each
    produce an event (EV-FRAME-COVER); `rule` is the rule charged for another outcome
    (None: the kind's own, `_frames._KIND_RULES`)."""

    kind: str
    frame: int | None
    cover: int
    bad_call: str | None = None
    rule: str | None = None


def arguments_value(text: str) -> JSONObject | None:
    """The object that joined argument text stands for: `""` is `{}` (EV-ARGS-EMPTY-OBJECT),
    otherwise the complete object (chat-fold: JSON whitespace around it allowed), or None.

    Only `""` is `{}`: arguments of JSON whitespace alone do not parse, so they are
    EV-ARGS-INVALID ("unparseable -> error", §4.1 and §4.3), in both dialects (see
    `_anthropic` for the Anthropic fold's own "empty")."""
    if text == "":
        return {}
    return parse_complete(text)


@dataclass
class ChatCalls:
    """Choice 0's calls in the chat fold's response, settled at each boundary."""

    settled: dict[str, JSON] = field(default_factory=dict)  # id -> arguments text

    @property
    def order(self) -> list[str]:
        """The ids of the calls completed so far, in the order they completed."""
        return list(self.settled)

    def changed(self, calls: list[JSONObject], number: int) -> StreamEnd | None:
        """A call settled at an earlier boundary whose arguments the fold has grown, or
        a second call announced with an id already in use."""
        named = [
            _chat_id(call)
            for call in calls
            if _chat_id(call) is not None
            and non_blank((call.get("function") or {}).get("name")) is not None
        ]
        if len(set(named)) != len(named):
            return StreamEnd("unsupported", number, number, None, "EV-IDS-SINGLE-USE")
        for call in calls:
            call_id = _chat_id(call)
            if call_id in self.settled and _text(call) != self.settled[call_id]:
                return StreamEnd(
                    "inconsistent_tool_arguments",
                    number,
                    number + 1,
                    call_id,
                    "EV-NO-DELTA-AFTER-COMPLETED",
                )
        return None

    def settle(self, calls: list[JSONObject], number: int | None, cover: int) -> StreamEnd | None:
        """Complete every call not settled yet (a finish frame, `[DONE]`, the end of the
        body), in the fold's order: the end of the first that cannot complete."""
        for call in calls:
            call_id, text = _chat_id(call), _text(call)
            name = non_blank((call.get("function") or {}).get("name"))
            # a settled call had a name: a nameless one under its id is another call
            # (a new id at its index took over, TOOL-2-NEW-ID), which never started
            if call_id is not None and call_id in self.settled and name is not None:
                continue
            if call_id is None or name is None:
                return StreamEnd("unsupported", number, cover, call_id, "EV-CALL-STARTED")
            if isinstance(text, str) and arguments_value(text) is None:
                return StreamEnd("invalid_tool_arguments", number, cover, call_id)
            self.settled[call_id] = text
        return None


def _chat_id(call: JSONObject) -> str | None:
    return non_blank(call.get("id"))


def _text(call: JSONObject) -> JSON:
    function = call.get("function")
    return function.get("arguments") if isinstance(function, dict) else None


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
