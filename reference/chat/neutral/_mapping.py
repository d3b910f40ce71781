"""OpenAI Chat Completions chunks → neutral events (events.md §4.1).

Built on the chat reference fold: the `Accumulator` folds every chunk (T.opaque is its
`chat.completion`, EV-TURN-OPAQUE, and its choice 0 gives the model, id and finish
reason), and choice 0's `delta.tool_calls` fragments go one at a time through a second
instance of the fold's own `ToolCalls` ladder, so that TOOL-1…5 decide, per fragment,
which call it belongs to and whether it is appended or a re-send. The mapping only reads
what the ladder decided (`_placed`); it never re-decides a chat-fold rule.

Decision (EV-TURN-CALLS "in the order of their ToolCallStarted" vs EV-FOLD-AGREES and
EV-DETERMINISM): open calls complete at a finish frame in the fold's order (index, then
arrival: TOOL-OUTPUT), the order of the non-streamed response, so T.tool_calls, folded
from the ToolCallCompleted events, never depends on where a split put a late id (family
5); the checker's side of this is in `_check_calls`.

Decision (EV-TRUNCATED and EV-STARTED-COMPLETED vs a call opened after choice 0's last
finish reason, family 8 noise): choice 0 has a finish reason, so by EV-TRUNCATED's own
test the stream is not truncated, and the chat fold is finished (LIFE-FINISHED) with the
call in its response (LIFE-AFTER). EV-CHAT-COMPLETE-AT-FINISH forbids completing a call
earlier than the finish frame, not later, and no later finish frame is left; so a call
still open when the stream completes completes there, right before Completed, by the
rules of a finish (EV-ARGS-INVALID, EV-CALL-STARTED). Its opaque is the frame that ended
the stream: `"[DONE]"`, or at the end of the body the last chunk (no frame follows it, so
it is no look-ahead).

Decision (EV-FRAME-COVER and EV-FRAME-ORDER vs EV-ARGS-BUFFER, a fragment held for a call
whose id is not known yet): the frame produces no event when read but the Opaque of
EV-OPAQUE-FALLBACK (`_base`), and its delta later, right after the ToolCallStarted, with
the frame as opaque. Without the Opaque, a call that never starts (an error frame, or a
finish without its id) would leave the frame uncovered, or covered only by an Opaque
emitted frames later, which is look-ahead; EV-FRAME-ORDER excepts only the released deltas.
"""

from __future__ import annotations

from ..._arguments import parse_complete
from ..._json import JSON, JSONObject, non_blank, non_negative_int, object_or_none
from ..._neutral.calls import PendingCall
from ..._neutral.events import Event, opaque, text_delta, usage
from ..._neutral.mapping import Mapping
from .._accumulator import Accumulator
from .._tools import ToolCalls, _Call

__all__ = ["ChatMapping"]

_STOP = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "content_filter",
}
"""EV-STOP-MAP for Chat: finish_reason → StopReason; any other value is `other`."""


def _count(value: JSON) -> int | None:
    return non_negative_int(value)


def chat_usage(value: JSONObject) -> JSONObject:
    """§4.1 usage mapping: cached ⊂ input and reasoning ⊂ output, as OpenAI reports."""
    prompt = object_or_none(value.get("prompt_tokens_details")) or {}
    completion = object_or_none(value.get("completion_tokens_details")) or {}
    return {
        "input_tokens": _count(value.get("prompt_tokens")),
        "output_tokens": _count(value.get("completion_tokens")),
        "cached_input_tokens": _count(prompt.get("cached_tokens")),
        "reasoning_tokens": _count(completion.get("reasoning_tokens")),
    }


def _choice_zero(chunk: JSONObject) -> list[JSONObject]:
    """EV-CHOICE0: the entries of choice 0 (CHOICE-KEY: no valid `index` is choice 0)."""
    choices = chunk.get("choices")
    if not isinstance(choices, list):
        return []
    return [
        entry
        for entry in choices
        if isinstance(entry, dict) and (non_negative_int(entry.get("index")) or 0) == 0
    ]


class ChatMapping(Mapping):
    """One Chat Completions stream: chunk objects, then `"[DONE]"` if it arrived."""

    provider = "openai-chat"

    def __init__(self) -> None:
        super().__init__()
        self._fold = Accumulator()
        self._ladder = ToolCalls()
        self._calls: dict[int, PendingCall] = {}  # id() of the ladder's call -> its state
        self._order: list[tuple[_Call, PendingCall]] = []  # every call, in arrival order
        self._ids: set[str] = set()
        self._finished = False  # choice 0 has a finish reason other than "error"
        self._last: JSON = None  # the last chunk read: the end of the body's frame

    def opaque(self, frame: JSON) -> Event:
        """EV-OPAQUE-TYPE: Chat lines carry no `event:` name, so always "message"."""
        return opaque("message", frame)

    def _frame(self, frame: JSON) -> list[Event]:
        if frame == "[DONE]":
            return self._done()
        self._last = frame
        if not isinstance(frame, dict):
            return []  # ROB-NOT-OBJECT: the fold refuses it; EV-UNKNOWN: it becomes Opaque
        self._fold.add(frame)
        if isinstance(frame.get("error"), dict):
            # EV-ERROR-FRAME: one Opaque, nothing else of the frame is normalised
            self.fail("provider_error", "EV-ERROR-FRAME: the provider sent an error chunk")
            return [self.opaque(frame)]
        events: list[Event] = []
        finishes = False
        for entry in _choice_zero(frame):
            events += self._entry(entry, frame)
            if self.outcome is not None:
                return events
            reason = non_blank(entry.get("finish_reason"))  # ROB-BLANK
            finishes = finishes or (reason is not None and reason != "error")
        if finishes:
            # LIFE-FINISHED ("error" finishes nothing); EV-CHAT-COMPLETE-AT-FINISH: the
            # finish frame is one unit, so a call a later entry of it opens completes too
            events += self._finish(frame)
            if self.outcome is not None:
                return events
        reported = frame.get("usage")
        if isinstance(reported, dict):
            events.append(usage(chat_usage(reported), frame))  # EV-USAGE; null: nothing
        return events

    def _entry(self, entry: JSONObject, frame: JSONObject) -> list[Event]:
        events: list[Event] = []
        delta = object_or_none(entry.get("delta"))  # CHOICE-DELTA-NULL
        if delta is not None:
            content = delta.get("content")
            if isinstance(content, str) and content:
                events.append(text_delta(content, frame))  # EV-TEXT, TEXT-JOIN: verbatim
            fragments = delta.get("tool_calls")
            if isinstance(fragments, list):  # ROB-WRONG-TYPE
                for fragment in fragments:
                    if isinstance(fragment, dict) and self.outcome is None:  # ROB-NULL-ENTRIES
                        events += self._fragment(fragment, frame)
        return events

    def _fragment(self, fragment: JSONObject, frame: JSONObject) -> list[Event]:
        self._ladder.add([fragment])  # TOOL-1 … TOOL-5 decide, exactly as the fold does
        call, index = self._placed()
        pending = self._calls.get(id(call))
        arguments = object_or_none(fragment.get("function")) or {}
        text = arguments.get("arguments")
        text = text if isinstance(text, str) else ""
        if pending is None:  # TOOL-1-OPEN, TOOL-2-NEW-ID, TOOL-4-SPLIT: a new call
            pending = self._calls[id(call)] = PendingCall(index)
            self._order.append((call, pending))
            appended = text
        elif self._resent(text, call, pending):
            appended = ""  # TOOL-3-RESEND: the ladder changed nothing
        else:
            appended = text  # TOOL-5-APPEND
        if pending.completed and appended:
            # EV-NO-DELTA-AFTER-COMPLETED: a call completed at a finish frame cannot change
            # (a call opened after an earlier finish, family 8 noise, completes at the next)
            self.fail(
                "inconsistent_tool_arguments",
                "EV-NO-DELTA-AFTER-COMPLETED: a tool call changed after choice 0 finished",
            )
            return []
        events = pending.take(appended, call.id, call.name, frame, self._ids)
        if events is None:
            self.fail("unsupported", "EV-IDS-SINGLE-USE: two tool calls of the turn share an id")
            return []
        return events

    @staticmethod
    def _resent(text: str, call: _Call, pending: PendingCall) -> bool:
        # Only a complete fragment can be a re-send (TOOL-3 needs complete onto complete);
        # then the ladder re-sent iff the call's arguments did not grow.
        return (
            bool(text)
            and parse_complete(text) is not None
            and len(call.arguments.text) == pending.length
        )

    def _placed(self) -> tuple[_Call, int]:
        # The ladder has no observation API, and the fold's decision is the one to reuse:
        # TOOL-INDEX / TOOL-NO-INDEX leave the index used in `_last_index`, and the call a
        # fragment went to is always the current (last) call of that index.
        index = self._ladder._last_index
        return self._ladder._by_index[index][-1], index

    def _finish(self, frame: JSON) -> list[Event]:
        """EV-CHAT-COMPLETE-AT-FINISH: every open call completes at choice 0's finish."""
        self._finished = True
        events: list[Event] = []
        # EV-TURN-CALLS: in the fold's order (see the module docstring)
        for call, pending in sorted(self._order, key=lambda item: item[1].index):
            if pending.completed:
                continue
            if not pending.started:
                self.fail(
                    "unsupported",
                    "EV-CALL-STARTED: a tool call never got both an id "
                    "and a name before choice 0 finished",
                )
                return events
            # TOOL-EMPTY-ARGS, EV-ARGS-EMPTY-OBJECT: no argument character at all is {}
            arguments = {} if call.arguments.empty else parse_complete(call.arguments.text)
            if arguments is None:
                self.fail(
                    "invalid_tool_arguments",
                    "EV-ARGS-INVALID: a tool call's arguments "
                    "are not a JSON object at choice 0's finish",
                )
                return events
            events.append(pending.complete(arguments, frame))
        return events

    def _done(self) -> list[Event]:
        """EV-CHAT-DONE: `[DONE]` after a finish reason completes the stream."""
        if not self._finished:
            self.fail("truncated", "EV-TRUNCATED: [DONE] arrived before choice 0 finished")
            return []
        self._fold.mark_done()  # LIFE-DONE
        return self._completion("[DONE]")

    def _end(self) -> list[Event]:
        """EV-CHAT-EOF: a body ending after choice 0's finish reason is complete."""
        if not self._finished:
            return super()._end()  # EV-TRUNCATED
        return self._completion(self._last)

    def _completion(self, frame: JSON) -> list[Event]:
        """The calls still open, then Completed, at `[DONE]` or at the end of the body
        (see the module docstring)."""
        events = self._finish(frame)
        if self.outcome is not None:
            return events
        response = self._fold.response()  # the chat.completion: EV-TURN-OPAQUE
        # choice 0 finished, so the fold has it, first (CHOICE-KEY and CHOICE-ORDER are the
        # fold's, the same as `_choice_zero`), with a finish reason that is a string
        reason = response["choices"][0]["finish_reason"]
        stop = _STOP.get(reason, "other")
        return [
            *events,
            self.complete(
                model=response["model"],
                response_id=response["id"],
                stop_reason=stop,
                opaque=response,
            ),
        ]  # ENV-ID
