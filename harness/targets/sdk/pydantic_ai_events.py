"""pydantic-ai's streamed-response events as provider-neutral events, offline: the adapter
every pydantic-ai events target shares, whatever source dialects its models read.

`Driver` runs `pydantic_ai.direct.model_request_stream` (the streamed model request an
`Agent` run makes) for the model a source builds on an in-memory transport, on an event
loop of its own (`asyncio.Runner`, so it must not be used from a thread that runs an
event loop). The SDK client under the model (they all speak `httpx2`, the httpx fork)
gets an `httpx2.MockTransport` whose response body is an asynchronous byte stream fed
from a queue: `feed(data)` puts one frame's SSE bytes in and runs the loop until the
library asks for the next bytes again (the body is "starved") or the stream has finished.
Every library event yielded in between was produced by those bytes and no later ones, so
the caller can attribute it to its frame (EV-FRAME-ORDER). The library runs in one task
(the model stream is consumed inline), so starvation means it has done all it can with
the bytes it had. The library's warnings (pydantic serializer warnings, genai-prices'
`UsageExtractionFailedWarning`) are silenced while it runs: under `filterwarnings =
error` they would be raised inside it.

`PydanticAIEvents` maps the library's events to neutral events (the table is in
`refold.dialects.provider_events.targets.pydantic_ai`); each target subclasses it with
its `sources` (`PydanticAISource`: the model, and how a frame is written as SSE and
named), each declared in the package of the source dialect it reads or of the target.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from refold.reference import JSON, JSONObject
from refold.targets.sdk._requires import quiet, require

__all__ = [
    "OFFLINE_API_KEY",
    "OFFLINE_BASE_URL",
    "OFFLINE_MODEL",
    "PROVIDER",
    "Driver",
    "PydanticAIEvents",
    "PydanticAISource",
    "Step",
    "library_version",
    "message_name",
]

_pydantic_ai = require("pydantic_ai", extra="pydantic-ai")
import httpx2  # noqa: E402
from pydantic_ai.direct import model_request_stream  # noqa: E402
from pydantic_ai.exceptions import IncompleteToolCall, ModelAPIError, UnexpectedModelBehavior  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    PartDeltaEvent,
    PartEndEvent,
    PartStartEvent,
    TextPart,
    TextPartDelta,
    ToolCallPart,
    ToolCallPartDelta,
)
from pydantic_ai.models import Model, StreamedResponse  # noqa: E402
from pydantic_ai.usage import RequestUsage  # noqa: E402

PROVIDER = "pydantic-ai"
OFFLINE_API_KEY = "refold-offline-dummy-key"
"""Never sent anywhere: every client's transport is in memory."""
OFFLINE_BASE_URL = "http://refold.invalid"
OFFLINE_MODEL = "refold-offline"
_PROMPT = "refold"
_STOPS = {
    "stop": "end_turn",
    "length": "max_tokens",
    "content_filter": "content_filter",
    "tool_call": "tool_use",
}


def message_name(frame: JSON) -> str:
    """The Opaque event name of a frame sent with no SSE event name (EV-OPAQUE-TYPE)."""
    return "message"


@dataclass(frozen=True)
class PydanticAISource:
    """One source dialect as a pydantic-ai events adapter reads it."""

    model: Callable[[httpx2.MockTransport], Model]
    """The pydantic-ai model, on an SDK client over the in-memory transport given."""
    sse: Callable[[JSON], bytes]
    """A frame as the SSE bytes the provider sends for it."""
    event_name: Callable[[JSON], str] = message_name
    """The SSE event name a frame is sent with (its Opaque's `event_type`)."""
    sentinel: JSON = None
    """The frame that only ends the body, and so gets no Opaque (None: no such frame)."""
    hosted_deltas: bool = False
    """Whether a ToolCallPartDelta of a part never started as a ToolCallPart is a hosted
    tool's (NativeToolCallPart: its action as args), and so dropped."""


def library_version() -> str:
    """The installed pydantic-ai version."""
    return str(_pydantic_ai.__version__)


@dataclass
class Step:
    """What the library did with one piece of body: its stream events in order, and,
    once its stream has ended, the response (`done`) or the exception it raised."""

    events: list[Any] = field(default_factory=list)
    usage: Any = None
    done: bool = False
    response: ModelResponse | None = None
    error: BaseException | None = None


class Driver:
    """One model request whose HTTP body is fed frame by frame: `model` builds the
    pydantic-ai model on the in-memory transport given (`httpx2.MockTransport`)."""

    def __init__(self, model: Callable[[httpx2.MockTransport], Model]) -> None:
        self._runner = asyncio.Runner()
        self._closed = False
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._starved = asyncio.Event()
        self._events: list[Any] = []
        self._stream: StreamedResponse | None = None
        self._result: ModelResponse | None = None
        self.request = ModelRequest.user_text_prompt(_PROMPT)
        """The request message the model was sent (the turn's persisted history starts
        with it)."""
        self._model = model(httpx2.MockTransport(self._answer))
        with quiet():
            self._task = self._runner.run(self._start())

    def feed(self, data: bytes | None) -> Step:
        """Serve `data` as the next bytes of the body (None: the body ends); what the
        library made of it."""
        if not self._task.done():
            with quiet():
                self._runner.run(self._wait(data))
        step = Step(events=self._events, usage=self._usage())
        self._events = []
        if self._task.done():
            step.done = True
            step.error = self._task.exception()
            step.response = self._result
        return step

    def close(self) -> None:
        """Stop the stream (if still running) and the event loop; idempotent."""
        if self._closed:
            return
        self._closed = True
        if not self._task.done():
            self._task.cancel()
            self._runner.run(asyncio.wait({self._task}))
        self._runner.close()

    async def _start(self) -> asyncio.Task[None]:
        task = asyncio.create_task(self._consume())
        await _first(self._starved, task)
        return task

    async def _wait(self, data: bytes | None) -> None:
        self._starved.clear()
        self._queue.put_nowait(data)
        await _first(self._starved, self._task)

    async def _consume(self) -> None:
        async with model_request_stream(self._model, [self.request]) as stream:
            self._stream = stream
            async for event in stream:
                self._events.append(event)
            self._result = stream.get()

    async def _body(self) -> AsyncIterator[bytes]:
        while True:
            self._starved.set()
            data = await self._queue.get()
            if data is None:
                return
            yield data

    def _answer(self, request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(
            200,
            headers={"content-type": "text/event-stream"},
            content=self._body(),
            request=request,
        )

    def _usage(self) -> Any:
        return None if self._stream is None else self._stream.usage


async def _first(starved: asyncio.Event, task: asyncio.Task[None]) -> None:
    """Wait until the body is starved or `task` has ended, whichever comes first."""
    waiter = asyncio.ensure_future(starved.wait())
    await asyncio.wait({waiter, task}, return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()


class PydanticAIEvents:
    """The events adapter: one stream per `begin`, pydantic-ai fed frame by frame. A
    subclass names its `sources`: the model and framing of each source dialect it reads."""

    sources: ClassVar[Mapping[str, PydanticAISource]] = {}
    """The source dialects this adapter's models read, by name."""

    def __init__(self) -> None:
        self._driver: Driver | None = None
        self._source: PydanticAISource | None = None
        self._reset()

    @property
    def accepts(self) -> tuple[str, ...]:
        """The names of the source dialects this adapter reads."""
        return tuple(self.sources)

    def begin(self, dialect: str) -> None:
        """Start a stream of `dialect` (one of `accepts`)."""
        if dialect not in self.sources:
            raise ValueError(
                f"this pydantic-ai adapter accepts {', '.join(self.accepts)}, not {dialect!r}"
            )
        self._close()
        self._reset()
        self._source = self.sources[dialect]
        self._driver = Driver(self._source.model)

    def _reset(self) -> None:
        self._last: JSON = None
        self._usage = _usage(RequestUsage())
        self._calls: dict[int, str] = {}
        self._outcome: JSONObject | None = None
        self._response: ModelResponse | None = None

    def frame(self, frame: JSON) -> list[JSON]:
        """Feed one frame; the events pydantic-ai produced from it."""
        if self._driver is None or self._source is None or self._outcome is not None:
            return []
        self._last = frame
        source = self._source
        events = self._events(self._driver.feed(source.sse(frame)), frame)
        sentinel = source.sentinel is not None and frame == source.sentinel
        if not sentinel and not any(_carries(event, frame) for event in events):
            events.insert(0, _opaque(source, frame))
        elif _provider_error(self._outcome) and not any(
            isinstance(event, dict) and event.get("type") == "Opaque" for event in events
        ):
            # the frame the library raised ModelAPIError at is the error frame, even when
            # the usage it carries (Responses `response.failed`) gave it a Usage
            events.append(_opaque(source, frame))
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
        hosted = self._source is not None and self._source.hosted_deltas
        if isinstance(delta, ToolCallPartDelta) and (index in self._calls or not hosted):
            # a delta of a part never started as a ToolCallPart is, where the source has
            # hosted tools, theirs (NativeToolCallPart: its action as args), dropped
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


def _opaque(source: PydanticAISource, frame: JSON) -> JSONObject:
    return {"type": "Opaque", "event_type": source.event_name(frame), "payload": frame}
