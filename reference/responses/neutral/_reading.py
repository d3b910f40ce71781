"""What the checker reads of an OpenAI Responses stream (events.md §4.2).

The frames are folded once by the Responses reference fold; after each event the function
call the fold routed it to (RS-ROUTE, RS-KEY-OUTPUT-INDEX, RS-ORPHAN, RS-READD) is read:
its arguments must keep extending (RQ3: a `.done` that contradicts the deltas is
`inconsistent_tool_arguments`), it must have a `call_id` and a name at its
`output_item.done` (EV-CALL-STARTED) and a `call_id` of its own (EV-IDS-SINGLE-USE), and
its arguments must parse there (EV-ARGS-INVALID). The stream ends at the first `error`
or `response.failed` (EV-ERROR-FRAME), at the first terminal with a response object, or
at the end of the body (EV-TRUNCATED). Calls still open at the terminal are judged on
the arguments the Response holds for them, as the reference adapter completes them there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..._errors import RefoldError
from ..._json import JSON, JSONObject, non_blank, non_negative_int, object_or_none
from ..._neutral.ends import StreamEnd, arguments_value
from ..._neutral.source import Analysis, Source, View, arrived
from .. import Accumulator, differences

__all__ = ["SOURCE", "ResponsesRead", "read_responses"]

_INCOMPLETE_STOP = {"max_output_tokens": "max_tokens", "content_filter": "content_filter"}
_TERMINALS = frozenset({"response.completed", "response.incomplete", "response.failed"})


@dataclass(frozen=True)
class ResponsesRead:
    """A Responses stream read once: its end, the Response, the order calls completed."""

    end: StreamEnd
    folded: JSONObject | None
    order: list[str]
    text: str | None
    """The public text in the order it arrived (None: the Response's own)."""
    calls: list[JSONObject]
    """The calls as they completed: a later item the fold puts at a completed call's
    output_index (RQ13 collisions, RS-READD) cannot un-complete it."""


def responses_view(response: JSONObject) -> tuple[JSON, JSON, str, list[JSONObject], str]:
    """(model, id, output_text, tool_calls, stop_reason) of a Response (EV-FOLD-AGREES,
    EV-TURN-FIELDS, EV-STOP-MAP): the output_text parts of its messages, its
    function_call items (`call_id`, never the item `id`: EV-CALL-ROUTE), the status."""
    output = [item for item in response.get("output") or [] if isinstance(item, dict)]
    text = "".join(
        part["text"]
        for item in output
        if item.get("type") == "message"
        for part in item.get("content") or []
        if isinstance(part, dict)
        and part.get("type") == "output_text"
        and isinstance(part.get("text"), str)
    )
    calls = []
    for item in output:
        if item.get("type") == "function_call":
            raw = item.get("arguments")
            calls.append(
                {
                    "id": item.get("call_id"),
                    "name": item.get("name"),
                    "arguments": arguments_value(raw) if isinstance(raw, str) else raw,
                }
            )
    status = response.get("status")
    if status == "incomplete":
        details = object_or_none(response.get("incomplete_details")) or {}
        reason = details.get("reason")
        stop = _INCOMPLETE_STOP.get(reason, "other") if isinstance(reason, str) else "other"
    elif status == "completed":
        stop = "tool_use" if calls else "end_turn"
    else:
        stop = "other"
    return response.get("model"), response.get("id"), text, calls, stop


def responses_output_tokens(frame: JSON) -> int | None:
    """The output tokens a terminal event's response reports (EV-USAGE-MONOTONE)."""
    if not isinstance(frame, dict) or frame.get("type") not in _TERMINALS:
        return None
    response = object_or_none(frame.get("response")) or {}
    usage = object_or_none(response.get("usage")) or {}
    return non_negative_int(usage.get("output_tokens"))


@dataclass
class _Calls:
    """The function_call items of the fold, by output_index, followed event by event."""

    sent: dict[int, str] = field(default_factory=dict)
    ids: dict[int, str] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)
    order: list[str] = field(default_factory=list)
    calls: list[JSONObject] = field(default_factory=list)

    def track(
        self, fold: Accumulator, index: int, number: int, *, boundary: bool
    ) -> StreamEnd | None:
        item = fold.item_at(index)
        if item is None:
            return None
        fields = item.done_item if item.done_item is not None else item.announced
        if non_blank(fields.get("type")) != "function_call":
            return None
        held = fields.get("arguments") if item.done_item is not None else item.arguments.text
        return self.grow(
            index,
            held,
            non_blank(fields.get("call_id")),
            non_blank(fields.get("name")),
            number,
            boundary=boundary,
        )

    def grow(
        self,
        index: int,
        text: JSON,
        call_id: str | None,
        name: str | None,
        number: int,
        *,
        boundary: bool,
    ) -> StreamEnd | None:
        text = text if isinstance(text, str) else ""
        sent = self.sent.get(index, "")
        if not text.startswith(sent) or (index in self.done and text != sent):
            return StreamEnd(
                "inconsistent_tool_arguments",
                number,
                number + 1,
                self.ids.get(index),
                "EV-NO-DELTA-AFTER-COMPLETED",
            )
        self.sent[index] = text
        if (
            index in self.ids
            and call_id is not None
            and (call_id, name) != (self.ids[index], self.names[index])
        ):
            # a re-announcement (RS-READD) renaming a started call: its ToolCallCompleted
            # could not carry its ToolCallStarted's identity, so the turn is unsupported
            return StreamEnd("unsupported", number, number, call_id, "EV-CALL-IDENTITY")
        if call_id is not None and name is not None and index not in self.ids:
            if call_id in self.ids.values():
                return StreamEnd("unsupported", number, number, call_id, "EV-IDS-SINGLE-USE")
            self.ids[index], self.names[index] = call_id, name
        if not boundary or index in self.done:
            return None
        self.done.add(index)
        if index not in self.ids:
            return StreamEnd("unsupported", number, number, call_id, "EV-CALL-STARTED")
        arguments = arguments_value(text)
        if arguments is None:
            return StreamEnd("invalid_tool_arguments", number, number, self.ids[index])
        self.order.append(self.ids[index])
        self.calls.append(
            {"id": self.ids[index], "name": self.names[index], "arguments": arguments}
        )
        return None

    def finish(self, response: JSONObject, number: int) -> StreamEnd | None:
        """The terminal: open calls complete on the Response's arguments, then the calls
        only the Response carries."""
        output = [
            item
            for item in response.get("output") or []
            if isinstance(item, dict) and item.get("type") == "function_call"
        ]
        final = {non_blank(item.get("call_id")): item for item in output}
        for index in sorted(self.sent):
            if index not in self.done:
                item = final.get(self.ids.get(index), {})
                end = self.grow(
                    index,
                    item.get("arguments", self.sent[index]),
                    None,
                    None,
                    number,
                    boundary=True,
                )
                if end is not None:
                    return end
        extra = -1
        for call_id, item in final.items():
            if call_id is None or call_id not in self.ids.values():
                end = self.grow(
                    extra,
                    item.get("arguments"),
                    call_id,
                    non_blank(item.get("name")),
                    number,
                    boundary=True,
                )
                if end is not None:
                    return end
                extra -= 1
        return None


@dataclass
class _Texts:
    """The text of every output_text part as the events showed it, frame by frame: what
    a frame-by-frame reader can agree with (EV-FOLD-AGREES; see `_ends` for Anthropic).
    A done item that later drops text already shown (RS-ITEM-DONE-REPLACES) cannot
    un-show it; a terminal Response that extends it (RS-OUTPUT-TERMINAL) adds the rest."""

    sent: dict[tuple[int, int], str] = field(default_factory=dict)
    pieces: list[str] = field(default_factory=list)

    def track(self, fold: Accumulator, index: int, frame: JSONObject) -> None:
        item = fold.item_at(index)
        position = non_negative_int(frame.get("content_index"))
        if item is None or item.type != "message" or position is None or item.done_item is not None:
            return
        part = item.content.at(position)
        if part is None or part.type != "output_text" or part.text is None:
            return
        key, joined = (index, position), part.text
        sent = self.sent.get(key, "")
        if joined != sent and joined.startswith(sent):
            self.sent[key] = joined
            self.pieces.append(joined[len(sent) :])

    def final(self, text: str) -> str:
        shown = "".join(self.pieces)
        return text if text.startswith(shown) else shown


def _routed(fold: Accumulator, kind: str, frame: JSONObject) -> int | None:
    if kind == "response.output_item.added":
        return non_negative_int(frame.get("output_index"))
    item_id = (
        (object_or_none(frame.get("item")) or {}).get("id")
        if kind == "response.output_item.done"
        else frame.get("item_id")
    )
    known = non_blank(item_id)
    index = fold.announced_index(known) if known is not None else None
    return index if index is not None else non_negative_int(frame.get("output_index"))


def read_responses(frames: Sequence[JSON]) -> ResponsesRead:
    """Fold `frames` with the Responses reference and read how they end."""
    fold, calls, texts = Accumulator(), _Calls(), _Texts()
    end: StreamEnd | None = None
    text: str | None = None
    for number, frame in enumerate(frames):
        if not isinstance(frame, dict):
            continue
        fold.add(frame)
        kind = non_blank(frame.get("type")) or ""
        if kind in ("error", "response.failed"):
            end = StreamEnd("provider_error", number, number + 1)
        elif kind in ("response.completed", "response.incomplete") and fold.finished:
            end = calls.finish(fold.response(), number) or StreamEnd("completed", number, number)
            text = texts.final(responses_view(fold.response())[2])
        elif kind in ("response.output_text.delta", "response.output_text.done"):
            index = _routed(fold, kind, frame)
            if index is not None:
                texts.track(fold, index, frame)
        elif kind.startswith("response.output_item.") or kind.startswith(
            "response.function_call_arguments."
        ):
            index = _routed(fold, kind, frame)
            end = (
                None
                if index is None
                else calls.track(fold, index, number, boundary=kind == "response.output_item.done")
            )
        if end is not None:
            break
    if end is None:
        end = StreamEnd("truncated", None, len(frames))
    if text is None:
        text = "".join(texts.pieces)
    try:
        folded: JSONObject | None = fold.response()
    except RefoldError:
        folded = None  # LIFE-RS-EMPTY: nothing to fold
    return ResponsesRead(end, folded, calls.order, text, calls.calls)


def _analyse(frames: Sequence[JSON]) -> Analysis:
    read = read_responses(frames)
    folded = read.folded
    view = arrived(_view(folded) if folded is not None else None, read.order, read.text)
    return Analysis(
        read.end,
        folded,
        view if view is None else replace(view, tool_calls=read.calls),
        several_choices=False,
    )


def _view(response: JSONObject) -> View:
    return View(*responses_view(response))


SOURCE = Source(
    analyse=_analyse,
    view=_view,
    differences=differences,
    output_tokens=responses_output_tokens,
    typed_frames=True,
    usage_at_error=lambda frame: isinstance(frame, dict) and frame.get("type") == "response.failed",
)
"""How the checker reads an `openai-responses` stream."""
