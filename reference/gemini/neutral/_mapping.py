"""Gemini `streamGenerateContent` chunks → neutral events (gemini-fold.md, "Provider-neutral
events").

Built on the Gemini reference fold: its `Accumulator` folds every chunk and decides what
each part does (GM-TEXT-JOIN, GM-THOUGHT-APART, GM-CALL-WHOLE, GM-CALL-STREAMED,
GM-CALL-PARTIAL-ARGS, GM-LIFE-ERROR, GM-LIFE-FINISHED); its response is T.opaque
(EV-TURN-OPAQUE) and gives the model, id and finish reason. After each chunk the mapping
reads candidate 0's parts and emits what changed, in part order; it re-decides no GM rule:

    answer text grown or new (not thought)   TextDelta                   EV-TEXT
    thought parts, signatures, other parts   nothing (Opaque)            EV-REASONING-OPAQUE
    a call part the fold holds final         ToolCallStarted, one        EV-CALL-STARTED,
                                             ToolCallArgumentsDelta,     EV-ARGS-OPTIONAL,
                                             ToolCallCompleted           EV-ARGS-PARSED
    a Vertex streamed call still open        nothing until it ends       EV-ARGS-DELTA
    usageMetadata object                     Usage (cumulative)          EV-USAGE
    error chunk                              Opaque; error               EV-ERROR-FRAME
    end of body, fold finished               open calls, Completed       EV-COMPLETED-LAST
    end of body, fold not finished           error (truncated)           EV-TRUNCATED

Only candidate 0 is normalised (EV-CHOICE0, as for Chat); other candidates produce
nothing. A call sent without an id gets `synthetic_id`. The spec section gives the reason
for each decision.
"""

from __future__ import annotations

import json

from ..._json import JSON, JSONObject, non_blank, non_negative_int, object_or_none
from ..._neutral.events import (
    Event,
    arguments_delta,
    text_delta,
    tool_call_completed,
    tool_call_started,
)
from ..._neutral.events import opaque as opaque_event
from ..._neutral.events import usage as usage_event
from ..._neutral.mapping import Mapping
from .. import Accumulator, GeminiChunkTypeError

__all__ = ["GeminiMapping", "candidate_zero", "gemini_stop", "gemini_usage", "synthetic_id"]

_CONTENT_FILTER = frozenset(
    {
        "SAFETY",
        "RECITATION",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
    }
)
"""Finish and block reasons that say a filter stopped the answer (EV-STOP-MAP)."""


def gemini_usage(value: JSONObject) -> JSONObject:
    """The TokenUsage of a `usageMetadata` object, normalised to OpenAI's convention.

    Gemini's buckets are disjoint: tool-use prompt tokens are beside the prompt's and
    thought tokens beside the candidates' (`totalTokenCount` is their sum), so they are
    added into input and output, as Anthropic's cache buckets are (NE-31); cached tokens
    are part of the prompt's already. A count the object omits is "not reported".
    """
    prompt = [
        non_negative_int(value.get(k)) for k in ("promptTokenCount", "toolUsePromptTokenCount")
    ]
    answer = [
        non_negative_int(value.get(k)) for k in ("candidatesTokenCount", "thoughtsTokenCount")
    ]
    return {
        "input_tokens": _sum(prompt),
        "output_tokens": _sum(answer),
        "cached_input_tokens": non_negative_int(value.get("cachedContentTokenCount")),
        "reasoning_tokens": answer[1],
    }


def _sum(counts: list[int | None]) -> int | None:
    reported = [count for count in counts if count is not None]
    return sum(reported) if reported else None


def gemini_stop(response: JSONObject) -> str:
    """EV-STOP-MAP: candidate 0's finishReason, else a blocked prompt's blockReason:
    `STOP` → end_turn, `MAX_TOKENS` → max_tokens, the filter reasons → content_filter,
    any other → other (EV-STOP-TOOL turns end_turn with calls into tool_use)."""
    reason = non_blank((candidate_zero(response) or {}).get("finishReason"))
    if reason is None:
        feedback = object_or_none(response.get("promptFeedback")) or {}
        reason = non_blank(feedback.get("blockReason"))
    if reason == "STOP":
        return "end_turn"
    if reason == "MAX_TOKENS":
        return "max_tokens"
    return "content_filter" if reason in _CONTENT_FILTER else "other"


def candidate_zero(response: JSONObject) -> JSONObject | None:
    """The folded candidate whose index is 0 (GM-CAND-INDEX), or None."""
    for candidate in response.get("candidates") or []:
        if candidate.get("index") == 0:
            return candidate  # type: ignore[no-any-return]
    return None


def synthetic_id(position: int) -> str:
    """The id of a call the backend sent without one (Vertex v1 has no `id` field):
    its position among candidate 0's call parts, so equal streams give equal ids."""
    return f"gemini-call-{position}"


def _public_text(part: JSONObject) -> str:
    """The public text of a part that is no call: its `text`, unless it is a thought."""
    text = part.get("text")
    if not isinstance(text, str) or part.get("thought") is True:
        return ""  # EV-REASONING-OPAQUE: thought summaries never reach output_text
    return text


def _call_arguments(call: JSONObject) -> JSONObject | None:
    """EV-ARGS-PARSED: `args` absent or null is `{}`; an object is itself; else None."""
    args = call.get("args")
    if args is None:
        return {}
    return args if isinstance(args, dict) else None


class GeminiMapping(Mapping):
    """One Gemini stream: the chunk objects, in arrival order (no sentinel)."""

    provider = "gemini-generate-content"

    def __init__(self) -> None:
        super().__init__()
        self._fold = Accumulator()
        self._texts: dict[int, str] = {}  # public text emitted, by part position
        self._calls: set[int] = set()  # positions of the call parts emitted
        self._ids: set[str] = set()
        self._last: JSON = None  # the last frame read: opaque of what end() emits

    def opaque(self, frame: JSON) -> Event:
        """EV-OPAQUE-TYPE: Gemini sends no SSE event names, so every Opaque is `message`."""
        return opaque_event("message", frame)

    def _frame(self, frame: JSON) -> list[Event]:
        self._last = frame
        try:
            self._fold.add(frame)
        except GeminiChunkTypeError:
            return []  # GM-ROB-NOT-OBJECT: the fold refuses it; EV-UNKNOWN: Opaque
        if self._fold.error is not None:
            self.fail("provider_error", "EV-ERROR-FRAME: the provider sent an error chunk")
            return []  # EV-OPAQUE-FALLBACK gives the error chunk its one Opaque
        assert isinstance(frame, dict)  # the fold refuses every other value
        events = self._parts(frame, self._fold.open_call(0))
        usage = object_or_none(frame.get("usageMetadata"))
        if usage is not None and self.outcome is None:
            events.append(usage_event(gemini_usage(usage), frame))  # EV-USAGE
        return events

    def _parts(self, frame: JSON, open_at: int | None) -> list[Event]:
        """The events of candidate 0's parts that changed, in part order."""
        candidate = candidate_zero(self._fold.response()) or {}
        parts = (candidate.get("content") or {}).get("parts") or []
        events: list[Event] = []
        for position, part in enumerate(parts):
            if isinstance(part.get("functionCall"), dict):
                if position not in self._calls and position != open_at:
                    events += self._call(position, parts, frame)
            else:
                events += self._text(position, _public_text(part), frame)
            if self.outcome is not None:
                return events  # EV-NOTHING-AFTER-ERROR: a call that cannot complete
        return events

    def _text(self, position: int, text: str, frame: JSON) -> list[Event]:
        """EV-TEXT: what the fold added to the part's public text since the last frame
        (parts only grow at the end: GM-TEXT-JOIN appends to the last run)."""
        sent, self._texts[position] = self._texts.get(position, ""), text
        grown = text[len(sent) :]
        return [text_delta(grown, frame)] if grown else []  # EV-NO-EMPTY-DELTA

    def _call(self, position: int, parts: list[JSONObject], frame: JSON) -> list[Event]:
        """A call part the fold holds final: ToolCallStarted, the whole arguments as one
        ToolCallArgumentsDelta (none for `{}`), ToolCallCompleted; or the error that
        keeps it from completing (EV-CALL-STARTED, EV-IDS-SINGLE-USE, EV-ARGS-INVALID)."""
        self._calls.add(position)
        call = parts[position]["functionCall"]
        ordinal = sum(isinstance(p.get("functionCall"), dict) for p in parts[:position])
        call_id = non_blank(call.get("id")) or synthetic_id(ordinal)
        name = non_blank(call.get("name"))
        arguments = _call_arguments(call)
        if name is None:
            self.fail("unsupported", "EV-CALL-STARTED: a function call has no name")
            return []
        if call_id in self._ids:
            self.fail("unsupported", "EV-IDS-SINGLE-USE: two function calls share an id")
            return []
        if arguments is None:
            self.fail(
                "invalid_tool_arguments",
                "EV-ARGS-INVALID: a function call's args are not a JSON object",
            )
            return []
        self._ids.add(call_id)
        events = [tool_call_started(call_id, name, frame)]
        if arguments:  # EV-ARGS-OPTIONAL: `{}` needs no fragment (EV-NO-EMPTY-DELTA)
            text = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
            events.append(arguments_delta(call_id, text, frame))
        return [*events, tool_call_completed(call_id, name, arguments, frame)]

    def _end(self) -> list[Event]:
        if not self._fold.finished:
            return super()._end()  # EV-TRUNCATED (an error chunk decided it already)
        # Decision: a streamed call still open when the body ends completes here, by
        # the rules of a finish, with the last frame as its opaque (as a Chat call
        # opened after the last finish reason does)
        events = self._parts(self._last, None)
        if self.outcome is not None:
            return events
        response = self._fold.response()
        return [
            *events,
            self.complete(
                model=response.get("modelVersion"),
                response_id=response.get("responseId"),
                stop_reason=gemini_stop(response),
                opaque=response,
            ),
        ]
