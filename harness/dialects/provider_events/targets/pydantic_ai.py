"""Target `pydantic-ai-events`: pydantic-ai's streamed-response events as provider-neutral
events (events.md, dialect `provider-events`), for its `OpenAIChatModel` (frames of
`openai-chat`), its `OpenAIResponsesModel` (frames of `openai-responses`: the Responses
API path, `POST /v1/responses` through openai's `AsyncOpenAI.responses.create(stream=True)`)
and its `AnthropicModel` (frames of `anthropic-messages`).

Driven offline (`_pydantic_ai_driver`): `pydantic_ai.direct.model_request_stream`, the
streamed request an `Agent` run makes, over the real SDK client (`AsyncOpenAI`,
`AsyncAnthropic`, both on `httpx2`) whose `MockTransport` streams the body frame by
frame. Each frame is written as its SSE bytes (Chat: one `data:` line, `[DONE]` as the
sentinel; Anthropic: `refold.targets.sdk.offline.named_frames`, as Anthropic writes them; Responses:
`event: <type>` and one `data:` line, as OpenAI sends them), fed, and the
library's events are pulled until it asks for more bytes: those events are the frame's,
and each carries that frame, as given, as its `opaque` (no look-ahead, EV-FRAME-ORDER).
What the library yields only once the body has ended is returned by `end()`, carrying
the body's last frame (`"[DONE]"` for a Chat body that sent it): the body's end, not a
frame, produced it.

Mapping (pydantic-ai 2.68.0; each library event gives the events on its right):

    PartStartEvent, TextPart(content)        TextDelta(content) if content is non-empty
    PartDeltaEvent, TextPartDelta            TextDelta(content_delta) if non-empty
    PartStartEvent, ToolCallPart             ToolCallStarted(tool_call_id, tool_name), then
                                             ToolCallArgumentsDelta(args) if args non-empty
    PartDeltaEvent, ToolCallPartDelta        ToolCallArgumentsDelta(args_delta) if non-empty,
                                             id = the id its part started with
    PartEndEvent, ToolCallPart               ToolCallCompleted(tool_call_id, tool_name,
                                             args_as_dict())
    StreamedResponse.usage, once the frame   Usage, if its four counters differ from the
      has been read                          last ones (initially all 0): input_tokens,
                                             output_tokens, cached = cache_read_tokens,
                                             reasoning = details `reasoning_tokens`, else
                                             output_reasoning_tokens
    the stream ended without raising         Completed(turn), turn from `.get()`
    a pydantic-ai error raised               outcome `error`: ModelAPIError (and subclasses)
                                             provider_error, IncompleteToolCall
                                             invalid_tool_arguments, other
                                             UnexpectedModelBehavior truncated (an empty
                                             body; also "cannot apply JSON deltas")
    any other exception                      raised (the library crashed; the harness charges)
    frame with none of the above             Opaque(event_type: Chat "message", Anthropic
                                             the frame's `type`; payload: the frame), first

Responses (OpenAIResponsesModel) go through the same table: its stream handler turns
`output_text.delta` into TextPartDelta, `output_item.added` of a function_call into a
ToolCallPart (tool_call_id = `call_id`), `function_call_arguments.delta` into
ToolCallPartDelta, and ends each part after the body (PartEndEvent, so ToolCallCompleted
is emitted at `end()`); a ToolCallPartDelta of a part never started as a ToolCallPart is
a hosted tool's NativeToolCallPart and dropped. The frame at which the library raises
ModelAPIError (`response.failed`, `error`) gets its Opaque after the Usage it carried.

Not representable, so dropped: ThinkingPart/ThinkingPartDelta, NativeToolCallPart and
NativeToolReturnPart (hosted tools), FinalResultEvent, PartEndEvent of other parts,
`ToolCallPartDelta.tool_name_delta` (a name growing after the start), file and speech
parts. pydantic-ai has no usage event, so a reported usage equal to the last snapshot (a
repeat, or all zeros) emits nothing; its counters are integers that read 0 when nothing
was reported. ProviderTurn: provider `pydantic-ai`; model `model_name`; response_id
`provider_response_id`; output_text the TextParts joined; tool_calls the ToolCallParts
as above; stop_reason from `finish_reason` (stop: end_turn, length: max_tokens,
content_filter, tool_call: tool_use, else other: its vocabulary has no stop_sequence,
pause_turn or refusal, and the adapter adds no reconciliation the library does not
make); usage the response's, as above; opaque the ModelResponse as pydantic-ai dumps it.

Persisted: what a pydantic-ai runtime writes for the turn, its message history (the
request, and the ModelResponse if the stream gave one) as
`ModelMessagesTypeAdapter.dump_json`, parsed back to JSON. What 2.68.0 breaks is pinned
by tests/dialects/provider_events/test_pydantic_ai_events_target.py.
"""

from __future__ import annotations

import json
from typing import Any

from refold.reference import JSON, JSONObject
from refold.targets.sdk._requires import quiet, require

from ._pydantic_ai_driver import ANTHROPIC, CHAT, GEMINI, RESPONSES, Driver, Step, library_version

require("pydantic_ai", extra="pydantic-ai")
from pydantic_ai.exceptions import IncompleteToolCall, ModelAPIError, UnexpectedModelBehavior  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelResponse,
    PartDeltaEvent,
    PartEndEvent,
    PartStartEvent,
    TextPart,
    TextPartDelta,
    ToolCallPart,
    ToolCallPartDelta,
)
from pydantic_ai.usage import RequestUsage  # noqa: E402

from refold.targets.sdk.offline import named_frames  # noqa: E402  (needs the SDKs' httpx2)

__all__ = ["PROVIDER", "PydanticAIEvents", "refold_target"]

PROVIDER = "pydantic-ai"
_DONE = "[DONE]"
_ACCEPTS = (CHAT, RESPONSES, ANTHROPIC)
_STOPS = {
    "stop": "end_turn",
    "length": "max_tokens",
    "content_filter": "content_filter",
    "tool_call": "tool_use",
}


class PydanticAIEvents:
    """The events adapter: one stream per `begin`, pydantic-ai fed frame by frame."""

    accepts: tuple[str, ...] = _ACCEPTS
    """The source dialects this adapter's models read."""

    def __init__(self) -> None:
        self._driver: Driver | None = None
        self._dialect = CHAT
        self._reset()

    def begin(self, dialect: str) -> None:
        """Start a stream of `dialect` (one of `accepts`)."""
        if dialect not in self.accepts:
            raise ValueError(
                f"this pydantic-ai adapter accepts {', '.join(self.accepts)}, not {dialect!r}"
            )
        self._close()
        self._reset()
        self._dialect = dialect
        self._driver = Driver(dialect)

    def _reset(self) -> None:
        self._last: JSON = None
        self._usage = _usage(RequestUsage())
        self._calls: dict[int, str] = {}
        self._outcome: JSONObject | None = None
        self._response: ModelResponse | None = None

    def frame(self, frame: JSON) -> list[JSON]:
        """Feed one frame; the events pydantic-ai produced from it."""
        if self._driver is None or self._outcome is not None:
            return []
        self._last = frame
        events = self._events(self._driver.feed(_sse(self._dialect, frame)), frame)
        if frame != _DONE and not any(_carries(event, frame) for event in events):
            events.insert(0, _opaque(self._dialect, frame))
        elif _provider_error(self._outcome) and not any(
            isinstance(event, dict) and event.get("type") == "Opaque" for event in events
        ):
            # the frame the library raised ModelAPIError at is the error frame, even when
            # the usage it carries (Responses `response.failed`) gave it a Usage
            events.append(_opaque(self._dialect, frame))
        return events

    def end(self) -> JSONObject:
        """End the body: the events pydantic-ai produced at its end, and the outcome."""
        events: list[JSON] = []
        if self._driver is not None:
            if self._outcome is None:
                events = self._events(self._driver.feed(None), self._last)
            self._close()
        outcome = self._outcome or {
            "outcome": "error",
            "error": {"kind": "truncated", "message": "pydantic-ai's stream did not end"},
        }
        return {**outcome, "events": events}

    def persisted(self) -> JSON:
        """The turn's message history as pydantic-ai serialises it: the request, and the
        response if the stream gave one (None: no stream begun)."""
        if self._driver is None:
            return None
        history: list[ModelMessage] = [self._driver.request]
        history.extend([self._response] if self._response is not None else [])
        with quiet():
            persisted: JSON = json.loads(ModelMessagesTypeAdapter.dump_json(history))
        return persisted

    def _close(self) -> None:
        if self._driver is not None:
            self._driver.close()

    def _events(self, step: Step, frame: JSON) -> list[JSON]:
        events: list[JSON] = []
        for event in step.events:
            events.extend(self._neutral(event, frame))
        usage = None if step.usage is None else _usage(step.usage)
        if usage is not None and usage != self._usage:
            self._usage = usage
            events.append({"type": "Usage", "usage": usage, "opaque": frame})
        if step.done:
            events.extend(self._finish(step))
        return events

    def _finish(self, step: Step) -> list[JSON]:
        if step.error is not None:
            if not isinstance(step.error, ModelAPIError | UnexpectedModelBehavior):
                self._close()
                raise step.error  # the library crashed: the harness charges it
            self._outcome = {"outcome": "error", "error": _error(step.error)}
            return []
        self._outcome = {"outcome": "completed"}
        self._response = step.response
        return (
            [] if step.response is None else [{"type": "Completed", "turn": _turn(step.response)}]
        )

    def _neutral(self, event: Any, frame: JSON) -> list[JSON]:
        if isinstance(event, PartStartEvent):
            return self._started(event.index, event.part, frame)
        if isinstance(event, PartDeltaEvent):
            return self._delta(event.index, event.delta, frame)
        if isinstance(event, PartEndEvent) and isinstance(event.part, ToolCallPart):
            return [{"type": "ToolCallCompleted", "call": _call(event.part), "opaque": frame}]
        return []

    def _started(self, index: int, part: Any, frame: JSON) -> list[JSON]:
        if isinstance(part, TextPart):
            return _text(part.content, frame)
        if not isinstance(part, ToolCallPart):
            return []
        self._calls[index] = part.tool_call_id
        started: list[JSON] = [
            {
                "type": "ToolCallStarted",
                "id": part.tool_call_id,
                "name": part.tool_name,
                "opaque": frame,
            }
        ]
        return started + _arguments(part.tool_call_id, part.args, frame)

    def _delta(self, index: int, delta: Any, frame: JSON) -> list[JSON]:
        if isinstance(delta, TextPartDelta):
            return _text(delta.content_delta, frame)
        if isinstance(delta, ToolCallPartDelta) and (
            index in self._calls or self._dialect != RESPONSES
        ):
            # Responses: a delta of a part never started as a ToolCallPart is a hosted
            # tool's (NativeToolCallPart: its action as args), dropped as documented
            call_id = self._calls.get(index, delta.tool_call_id or "")
            return _arguments(call_id, delta.args_delta, frame)
        return []


def _text(text: str, frame: JSON) -> list[JSON]:
    return [{"type": "TextDelta", "delta": text, "opaque": frame}] if text else []


def _arguments(call_id: str, args: Any, frame: JSON) -> list[JSON]:
    if isinstance(args, dict):
        args = json.dumps(args) if args else ""
    if not args:
        return []
    return [{"type": "ToolCallArgumentsDelta", "id": call_id, "delta": args, "opaque": frame}]


def _call(part: ToolCallPart) -> JSONObject:
    return {"id": part.tool_call_id, "name": part.tool_name, "arguments": part.args_as_dict()}


def _usage(usage: RequestUsage) -> JSONObject:
    reasoning = usage.details.get("reasoning_tokens", usage.output_reasoning_tokens)
    return {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cached_input_tokens": usage.cache_read_tokens,
        "reasoning_tokens": reasoning,
    }


def _turn(response: ModelResponse) -> JSONObject:
    with quiet():
        opaque: JSON = json.loads(ModelMessagesTypeAdapter.dump_json([response]))[0]
    return {
        "provider": PROVIDER,
        "model": response.model_name or "",
        "response_id": response.provider_response_id,
        "output_text": "".join(p.content for p in response.parts if isinstance(p, TextPart)),
        "tool_calls": [_call(p) for p in response.parts if isinstance(p, ToolCallPart)],
        "stop_reason": _STOPS.get(str(response.finish_reason), "other"),
        "usage": _usage(response.usage),
        "opaque": opaque,
    }


def _error(error: BaseException) -> JSONObject:
    kind = (
        "provider_error"
        if isinstance(error, ModelAPIError)
        else "invalid_tool_arguments"
        if isinstance(error, IncompleteToolCall)
        else "truncated"
    )
    return {"kind": kind, "message": f"{type(error).__name__}: {error}"}


def _provider_error(outcome: JSONObject | None) -> bool:
    error = outcome.get("error") if outcome is not None else None
    return isinstance(error, dict) and error.get("kind") == "provider_error"


def _carries(event: JSON, frame: JSON) -> bool:
    return isinstance(event, dict) and event.get("opaque", event.get("payload")) is frame


def _opaque(dialect: str, frame: JSON) -> JSONObject:
    return {"type": "Opaque", "event_type": _event_name(dialect, frame), "payload": frame}


def _event_name(dialect: str, frame: JSON) -> str:
    """The SSE event name the frame was sent with (`named_frames` and `_sse` name an
    Anthropic or Responses frame by a usable `type`), else "message" (EV-OPAQUE-TYPE)."""
    named = dialect not in (CHAT, GEMINI)  # Gemini sends no event names either
    kind = frame.get("type") if named and isinstance(frame, dict) else None
    usable = isinstance(kind, str) and kind.strip() and not any(c in kind for c in "\r\n")
    return kind if usable and isinstance(kind, str) else "message"


def _sse(dialect: str, frame: JSON) -> bytes:
    if dialect == ANTHROPIC:
        return named_frames([frame])[0]
    if dialect == RESPONSES:  # `event: <type>` as OpenAI sends it, when the type is usable
        name = _event_name(dialect, frame)
        head = "" if name == "message" else f"event: {name}\n"
        return f"{head}data: {json.dumps(frame, ensure_ascii=False)}\n\n".encode()
    data = frame if frame == _DONE else json.dumps(frame, ensure_ascii=False)
    return f"data: {data}\n\n".encode()


refold_target = {
    "name": "pydantic-ai-events",
    "dialect": "provider-events",
    "adapter": PydanticAIEvents,
    "accepts": list(_ACCEPTS),
    "provider": PROVIDER,
    "features": ["events"],
    "description": f"pydantic-ai {library_version()}: model_request_stream events of "
    f"OpenAIChatModel, OpenAIResponsesModel and AnthropicModel over an "
    f"in-memory transport fed frame by frame "
    f"(refold.dialects.provider_events.targets.pydantic_ai)",
}
"""The declaration `--target pydantic-ai-events` loads."""
