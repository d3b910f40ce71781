"""OpenAI Responses events → neutral events (events.md §4.2).

Built on the Responses reference fold: its `Accumulator` folds every event and decides
what each does (RS-ROUTE, RS-KEY-OUTPUT-INDEX, RS-ORPHAN, RS-READD, RS-KIND-MATCH,
RS-DONE-REPLACES, RS-ITEM-DONE-REPLACES, LIFE-RS-FINISHED); its Response is T.opaque
(EV-TURN-OPAQUE) and gives the model, id, usage and stop (RS-ENV-TERMINAL,
RS-USAGE-TERMINAL). The mapping reads, after each event, the item the fold routed it to
and emits what changed; it re-decides no RS rule. §4.2 states no rule ids of its own:
each row is decided by a §2 rule, named where it is applied:

    created / queued / in_progress          Opaque named by `type`    EV-OPAQUE-TYPE
    output_item.added, function_call        ToolCallStarted {call_id} EV-CALL-STARTED,
                                            (+ delta of `arguments`)  EV-CALL-ROUTE
    function_call_arguments.delta           ToolCallArgumentsDelta    EV-ARGS-DELTA
    function_call_arguments.done            the rest / Opaque / error EV-ARGS-CONSERVE
    output_item.done, function_call         the rest, then Completed  EV-ARGS-PARSED
    output_text.delta / .done               TextDelta / the rest      EV-TEXT
    refusal, reasoning, hosted, other items Opaque                    EV-*-OPAQUE
    response.completed / .incomplete        Usage, Completed          EV-USAGE, EV-STOP-MAP
    response.failed, error                  Usage, Opaque; error      EV-ERROR-FRAME
    end of body without a terminal          error (truncated)         EV-TRUNCATED

A function call's arguments follow one rule for every row that touches them (added,
arguments delta, arguments done, output_item.done): the text the fold now holds for the
item (its done item's `arguments` once it has one) must extend what was already emitted
for the call; the rest is one ToolCallArgumentsDelta (EV-ARGS-DELTA; the `.done` prefix
rule of RQ3), nothing when it is equal, and `inconsistent_tool_arguments` otherwise.

Decision (EV-STARTED-COMPLETED and EV-FOLD-AGREES vs the §4.2 terminal row, which lists
only Usage and Completed): at `response.completed` / `.incomplete` a call that never got
its `output_item.done` (family 4, deltas only) completes with the arguments the fold's
Response holds for its `call_id`, and a function call or text that only the terminal
output carries (a gateway sending the whole response at the end) is emitted from the
terminal frame, as a call "announced only on output_item.done" is from that frame; all
of it before Usage and Completed.

Decision (EV-TEXT vs RS-DONE-REPLACES, a text delta after its part's `.done`): the fold
keeps the done text and drops the delta, so the delta is Opaque, as an argument fragment
the fold does not append is no delta (EV-ARGS-CONSERVE).
"""

from __future__ import annotations

from ..._arguments import parse_complete
from ..._json import JSON, JSONObject, non_blank, non_negative_int, object_or_none
from ..._neutral.calls import PendingCall
from ..._neutral.events import Event, text_delta, usage
from ..._neutral.mapping import Mapping
from .. import Accumulator
from .._items import Item

__all__ = ["ResponsesMapping", "responses_usage"]

_INCOMPLETE_STOP = {"max_output_tokens": "max_tokens", "content_filter": "content_filter"}
"""EV-STOP-MAP for `response.incomplete`: `incomplete_details.reason`; else `other`."""

_ERROR_FRAMES = frozenset({"error", "response.failed"})
_FINISHING = frozenset({"response.completed", "response.incomplete"})
_TEXT_EVENTS = frozenset({"response.output_text.delta", "response.output_text.done"})
_CALL_EVENTS = frozenset(
    {
        "response.output_item.added",
        "response.output_item.done",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
    }
)


def responses_usage(value: JSONObject) -> JSONObject:
    """§4.2 usage mapping: cached ⊂ input and reasoning ⊂ output, as OpenAI reports."""
    given = object_or_none(value.get("input_tokens_details")) or {}
    taken = object_or_none(value.get("output_tokens_details")) or {}
    return {
        "input_tokens": non_negative_int(value.get("input_tokens")),
        "output_tokens": non_negative_int(value.get("output_tokens")),
        "cached_input_tokens": non_negative_int(given.get("cached_tokens")),
        "reasoning_tokens": non_negative_int(taken.get("reasoning_tokens")),
    }


def call_arguments(text: str) -> JSONObject | None:
    """EV-ARGS-PARSED, EV-ARGS-EMPTY-OBJECT: `""` is `{}`, else the complete object."""
    return {} if text == "" else parse_complete(text)


class _Call:
    """A function_call item of the fold, with the arguments emitted for it so far."""

    __slots__ = ("pending", "sent")

    def __init__(self, index: int) -> None:
        self.pending = PendingCall(index)
        self.sent = ""


class ResponsesMapping(Mapping):
    """One Responses stream: the event objects, in arrival order (no `[DONE]`)."""

    provider = "openai-responses"

    def __init__(self) -> None:
        super().__init__()
        self._fold = Accumulator()
        self._calls: dict[int, _Call] = {}  # function_call items by output_index
        self._texts: dict[tuple[int, int], str] = {}  # text emitted per output_text part
        self._ids: set[str] = set()

    def _frame(self, frame: JSON) -> list[Event]:
        if not isinstance(frame, dict):
            return []  # RS-NOT-OBJECT: the fold refuses it; EV-UNKNOWN: Opaque
        self._fold.add(frame)
        kind = non_blank(frame.get("type")) or ""
        if kind in _ERROR_FRAMES:
            return self._failed(frame)  # EV-ERROR-FRAME
        if kind in _FINISHING:
            # RS-WRONG-TYPE: a terminal whose response is no object finishes nothing
            return self._terminal(kind, frame) if self._fold.finished else []
        index = self._routed(kind, frame)
        if index is None:
            return []  # lifecycle, reasoning, refusal, hosted, unknown: Opaque
        if kind in _TEXT_EVENTS:
            return self._text(index, frame)
        if kind in _CALL_EVENTS:
            return self._call(index, frame, boundary=kind == "response.output_item.done")
        return []

    def _routed(self, kind: str, frame: JSONObject) -> int | None:
        """The output_index of the item the fold applied `frame` to (RS-ROUTE, then
        RS-KEY-OUTPUT-INDEX), as `Items` finds it; None for no item event."""
        if kind == "response.output_item.added":
            return non_negative_int(frame.get("output_index"))
        if kind == "response.output_item.done":
            item_id = (object_or_none(frame.get("item")) or {}).get("id")
        else:
            item_id = frame.get("item_id")
        known = non_blank(item_id)
        # the fold's own id table: which item each announced id names (RS-ROUTE)
        index = self._fold.announced_index(known) if known is not None else None
        return index if index is not None else non_negative_int(frame.get("output_index"))

    def _item(self, index: int) -> Item | None:
        return self._fold.item_at(index)

    def _text(self, index: int, frame: JSONObject) -> list[Event]:
        """EV-TEXT: `output_text.delta` is a TextDelta when the fold joined it
        (RS-TEXT-JOIN, RS-KIND-MATCH); `output_text.done` the rest of its text when what
        was emitted for the part is a proper prefix of it (RQ5), else Opaque."""
        item = self._item(index)
        content_index = non_negative_int(frame.get("content_index"))
        if (
            item is None
            or item.type != "message"
            or content_index is None
            or item.done_item is not None
        ):
            return []  # RS-ITEM-DONE-REPLACES: a done item's text is the done item's
        part = item.content.at(content_index)
        if part is None or part.type != "output_text" or part.text is None:
            return []  # RS-KIND-MATCH (a refusal part), RS-DONE-REPLACES (part done)
        key = (index, content_index)
        sent = self._texts.get(key, "")
        joined = part.text
        if joined == sent or not joined.startswith(sent):
            # equal (an empty delta, a delta the fold dropped after the part's .done, a
            # .done that adds nothing), or a .done contradicting the deltas: Opaque
            return []
        self._texts[key] = joined
        return [text_delta(joined[len(sent) :], frame)]  # EV-NO-EMPTY-DELTA: non-empty

    def _call(self, index: int, frame: JSONObject, *, boundary: bool) -> list[Event]:
        """ToolCallStarted {id: `call_id`, name} (EV-CALL-STARTED, EV-CALL-ROUTE, RS-CALL-
        IDS), the arguments the fold appended (EV-ARGS-DELTA, EV-ARGS-BUFFER while the
        call_id is unknown), and at `output_item.done` ToolCallCompleted."""
        item = self._item(index)
        if item is None:
            return []
        fields = item.done_item if item.done_item is not None else item.announced
        if non_blank(fields.get("type")) != "function_call":
            return []  # EV-HOSTED-OPAQUE: only client-executed function calls are calls
        call = self._calls.setdefault(index, _Call(index))
        held = fields.get("arguments") if item.done_item is not None else item.arguments.text
        events = self._grown(
            call,
            held if isinstance(held, str) else "",
            non_blank(fields.get("call_id")),
            non_blank(fields.get("name")),
            frame,
        )
        if events is not None and boundary and not call.pending.completed:
            return events + self._completion(call, frame)
        return events or []

    def _grown(
        self, call: _Call, text: str, call_id: str | None, name: str | None, frame: JSON
    ) -> list[Event] | None:
        """The events of a call whose arguments now read `text`; None once failed."""
        pending = call.pending
        if not text.startswith(call.sent) or (pending.completed and text != call.sent):
            self.fail(
                "inconsistent_tool_arguments",
                "EV-ARGS-CONSERVE, EV-NO-DELTA-AFTER-"
                "COMPLETED: a function call's arguments do not extend those already "
                "emitted for it (RQ3)",
            )
            return None
        if (
            pending.started
            and call_id is not None
            and (call_id, name) != (pending.id, pending.name)
        ):
            self.fail(
                "unsupported",
                "EV-CALL-IDENTITY: a function call item changed its "
                "call_id or name after its ToolCallStarted",
            )
            return None
        appended, call.sent = text[len(call.sent) :], text
        events = pending.take(appended, call_id, name, frame, self._ids)
        if events is None:
            self.fail(
                "unsupported", "EV-IDS-SINGLE-USE: two function calls of the turn share a call_id"
            )
        return events

    def _completion(self, call: _Call, frame: JSON) -> list[Event]:
        """ToolCallCompleted with the arguments parsed, or EV-ARGS-INVALID."""
        if not call.pending.started:
            self.fail(
                "unsupported",
                "EV-CALL-STARTED: a function call completed without both a call_id and a name",
            )
            return []
        arguments = call_arguments(call.sent)
        if arguments is None:
            self.fail(
                "invalid_tool_arguments",
                "EV-ARGS-INVALID: a function call's "
                "arguments are not a JSON object at its output_item.done",
            )
            return []
        return [call.pending.complete(arguments, frame)]

    def _failed(self, frame: JSONObject) -> list[Event]:
        """EV-ERROR-FRAME: Usage (a `response.failed` that has one), then the Opaque."""
        events: list[Event] = []
        response = object_or_none(frame.get("response"))
        if frame.get("type") == "response.failed" and response is not None:
            reported = self._fold.response().get("usage")  # RS-USAGE-TERMINAL
            if isinstance(reported, dict):
                events.append(usage(responses_usage(reported), frame))
        self.fail(
            "provider_error", "EV-ERROR-FRAME: the provider sent an error event or response.failed"
        )
        return [*events, self.opaque(frame)]

    def _terminal(self, kind: str, frame: JSONObject) -> list[Event]:
        """Usage (if the Response has one), then Completed (EV-COMPLETED-LAST)."""
        response = self._fold.response()
        events = self._recovered(response, frame)
        if self.outcome is not None:
            return events
        reported = response.get("usage")
        if isinstance(reported, dict):
            events.append(usage(responses_usage(reported), frame))  # EV-USAGE
        events.append(
            self.complete(
                model=response.get("model"),
                response_id=response.get("id"),
                stop_reason=_stop(kind, response),
                opaque=response,
            )
        )
        return events

    def _recovered(self, response: JSONObject, frame: JSONObject) -> list[Event]:
        """What the Response holds that no event emitted yet (see the module docstring):
        the rest of its text, the open calls' arguments and completions, calls only it
        carries."""
        output = [item for item in response.get("output") or [] if isinstance(item, dict)]
        events: list[Event] = []
        text = _output_text(output)
        emitted = self.turn.output_text
        if text != emitted and text.startswith(emitted):
            events.append(text_delta(text[len(emitted) :], frame))
        final = {
            non_blank(item.get("call_id")): item
            for item in output
            if item.get("type") == "function_call"
        }
        for index in sorted(self._calls):
            call = self._calls[index]
            if call.pending.completed:
                continue
            item = final.get(call.pending.id) or {}
            events += self._closed(call, item.get("arguments", call.sent), None, None, frame)
            if self.outcome is not None:
                return events
        for call_id, item in final.items():
            if call_id is None or call_id not in self._ids:
                call = _Call(-1)
                events += self._closed(
                    call, item.get("arguments"), call_id, non_blank(item.get("name")), frame
                )
                if self.outcome is not None:
                    return events
        return events

    def _closed(
        self, call: _Call, text: JSON, call_id: str | None, name: str | None, frame: JSON
    ) -> list[Event]:
        """A call's rest of arguments and its completion at the terminal frame."""
        pending = call.pending
        grown = self._grown(
            call,
            text if isinstance(text, str) else call.sent,
            call_id or pending.id,
            name or pending.name,
            frame,
        )
        if grown is None:
            return []
        return grown + self._completion(call, frame)


def _output_text(output: list[JSONObject]) -> str:
    """EV-FOLD-AGREES: the text of every output_text part of every message, in order."""
    return "".join(
        part["text"]
        for item in output
        if item.get("type") == "message"
        for part in item.get("content") or []
        if isinstance(part, dict)
        and part.get("type") == "output_text"
        and isinstance(part.get("text"), str)
    )


def _stop(kind: str, response: JSONObject) -> str:
    """EV-STOP-MAP: completed → tool_use with a function_call item, else end_turn;
    incomplete → `incomplete_details.reason` through `_INCOMPLETE_STOP`, else other."""
    if kind == "response.completed":
        calls = any(
            isinstance(item, dict) and item.get("type") == "function_call"
            for item in response.get("output") or []
        )
        return "tool_use" if calls else "end_turn"
    details = object_or_none(response.get("incomplete_details")) or {}
    reason = details.get("reason")
    return _INCOMPLETE_STOP.get(reason, "other") if isinstance(reason, str) else "other"
