"""pydantic-ai's model stream, driven one frame at a time, offline.

`Driver` runs `pydantic_ai.direct.model_request_stream` (the streamed model request an
`Agent` run makes) for `OpenAIChatModel`, `OpenAIResponsesModel`, `AnthropicModel` or
`GoogleModel` (the Gemini API's `streamGenerateContent?alt=sse`, imported when asked) on
an event loop of its own (`asyncio.Runner`, so it must not be used from a thread that
runs an event loop). The
SDK client under the model (openai's `AsyncOpenAI`, anthropic's `AsyncAnthropic`,
google-genai's `Client` through pydantic-ai's `GoogleProvider`; all speak `httpx2`, the
httpx fork) gets an `httpx2.MockTransport` whose response body is an
asynchronous byte stream fed from a queue: `feed(data)` puts one frame's SSE bytes in
and runs the loop until the library asks for the next bytes again (the body is
"starved") or the stream has finished. Every library event yielded in between was
produced by those bytes and no later ones, so the caller can attribute it to its frame
(EV-FRAME-ORDER). The library runs in one task (the model stream is consumed inline), so
starvation means it has done all it can with the bytes it had. The library's warnings
(pydantic serializer warnings, genai-prices' `UsageExtractionFailedWarning`) are silenced
while it runs: under `filterwarnings = error` they would be raised inside it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from refold.targets.sdk._requires import quiet, require

__all__ = ["ANTHROPIC", "CHAT", "GEMINI", "RESPONSES", "Driver", "Step", "library_version"]

_pydantic_ai = require("pydantic_ai", extra="pydantic-ai")
import httpx2  # noqa: E402
from anthropic import AsyncAnthropic  # noqa: E402
from openai import AsyncOpenAI  # noqa: E402
from pydantic_ai.direct import model_request_stream  # noqa: E402
from pydantic_ai.messages import ModelRequest, ModelResponse  # noqa: E402
from pydantic_ai.models import Model, StreamedResponse  # noqa: E402
from pydantic_ai.models.anthropic import AnthropicModel  # noqa: E402
from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel  # noqa: E402
from pydantic_ai.providers.anthropic import AnthropicProvider  # noqa: E402
from pydantic_ai.providers.openai import OpenAIProvider  # noqa: E402

CHAT = "openai-chat"
RESPONSES = "openai-responses"
ANTHROPIC = "anthropic-messages"
GEMINI = "gemini-generate-content"
_GEMINI_TIMEOUT = 600.0
"""Seconds; GoogleProvider warns about a client with httpx's 5-second default."""
_API_KEY = "refold-offline-dummy-key"
"""Never sent anywhere: every client's transport is in memory."""
_BASE_URL = "http://refold.invalid"
_MODEL = "refold-offline"
_PROMPT = "refold"


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
    """One model request of `dialect` whose HTTP body is fed frame by frame."""

    def __init__(self, dialect: str) -> None:
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
        self._model = _model(dialect, self._answer)
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


def _model(dialect: str, answer: Callable[[httpx2.Request], httpx2.Response]) -> Model:
    if dialect == GEMINI:
        return _google_model(
            httpx2.AsyncClient(transport=httpx2.MockTransport(answer), timeout=_GEMINI_TIMEOUT)
        )
    http_client = httpx2.AsyncClient(transport=httpx2.MockTransport(answer))
    if dialect in (CHAT, RESPONSES):
        openai_client = AsyncOpenAI(
            api_key=_API_KEY, base_url=f"{_BASE_URL}/v1", max_retries=0, http_client=http_client
        )
        provider = OpenAIProvider(openai_client=openai_client)
        if dialect == RESPONSES:  # POST /v1/responses, its ResponseStream events
            return OpenAIResponsesModel(_MODEL, provider=provider)
        return OpenAIChatModel(_MODEL, provider=provider)
    anthropic_client = AsyncAnthropic(
        api_key=_API_KEY, base_url=_BASE_URL, max_retries=0, http_client=http_client
    )
    return AnthropicModel(_MODEL, provider=AnthropicProvider(anthropic_client=anthropic_client))


def _google_model(http_client: httpx2.AsyncClient) -> Model:
    """`GoogleModel` on the Gemini API (google-genai asks for `alt=sse`); imported here so
    that the other models need no google-genai."""
    require("google.genai", extra="pydantic-ai")
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.providers.google import GoogleProvider

    provider = GoogleProvider(api_key=_API_KEY, http_client=http_client, base_url=_BASE_URL)
    return GoogleModel(_MODEL, provider=provider)
