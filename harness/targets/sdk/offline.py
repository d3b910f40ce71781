"""An SDK's wire layer, offline: the bytes a server sends for a list of events, an HTTP
client answered in memory, and an SDK's own SSE decoding of byte pieces.

The Python SDKs whose streams are SSE frames named by the data's `type` (anthropic-python,
openai-python's Responses streams) speak `httpx2`, the httpx fork; a dialect's `_wire`
module gives its SDK's client and `Stream` class (an `OfflineSdk`), and these pieces do
the rest the same way for each. Import this module only after `require`-ing the SDK
(`_requires`), which brings `httpx2` with it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, Protocol, TypeVar

import httpx2

from refold.reference import JSON
from refold.reference.sse import event_name

from ._requires import quiet

__all__ = [
    "Handler",
    "OfflineSdk",
    "decoded",
    "event_stream_response",
    "named_frames",
    "offline_http_client",
    "refusing",
    "sdk_client",
    "serving",
]


class _Closable(Protocol):
    def close(self) -> None: ...


_Client = TypeVar("_Client", bound=_Closable)
_Read = TypeVar("_Read")

Handler = Callable[[httpx2.Request], httpx2.Response]
"""What answers an offline client's every request."""


def named_frames(events: Sequence[JSON]) -> list[bytes]:
    """Each event as the frame the API writes for it: `event: <type>`, one `data:` line of
    JSON (UTF-8, not ASCII-escaped), a blank line. An event whose `type` cannot be an event
    name (not a non-blank string, or holding a line break) gets no `event:` line."""
    return [_frame(event) for event in events]


def _frame(event: JSON) -> bytes:
    kind = event_name(event)
    head = f"event: {kind}\n" if kind is not None else ""
    try:
        return f"{head}data: {json.dumps(event, ensure_ascii=False)}\n\n".encode()
    except UnicodeEncodeError:
        # A lone surrogate can only travel escaped in UTF-8 JSON text.
        return f"{head}data: {json.dumps(event)}\n\n".encode()


def event_stream_response(request: httpx2.Request, parts: Sequence[bytes]) -> httpx2.Response:
    """A `text/event-stream` answer to `request` streaming `parts` one by one."""
    return httpx2.Response(
        200,
        headers={"content-type": "text/event-stream"},
        content=iter(list(parts)),
        request=request,
    )


def serving(
    events: Sequence[JSON], frames: Callable[[Sequence[JSON]], list[bytes]] = named_frames
) -> Handler:
    """A handler answering any request with `events` as SSE frames."""
    written = frames(events)

    def answer(request: httpx2.Request) -> httpx2.Response:
        return event_stream_response(request, written)

    return answer


def offline_http_client(handler: Handler) -> httpx2.Client:
    """An HTTP client whose every request is answered by `handler`, in memory."""
    return httpx2.Client(transport=httpx2.MockTransport(handler))


def sdk_client(
    client: Callable[..., _Client], handler: Handler, *, api_key: str, base_url: str
) -> _Client:
    """An SDK's `client` class whose every request is answered by `handler`, in memory,
    and never retried; `api_key` is never sent anywhere."""
    return client(
        api_key=api_key,
        base_url=base_url,
        max_retries=0,
        http_client=offline_http_client(handler),
    )


def refusing(request: httpx2.Request) -> httpx2.Response:
    """The handler of a client that only decodes: it sends no request."""
    return httpx2.Response(500, request=request)


StreamClass = Callable[..., Iterable[Any]]
"""An SDK's `Stream` class, called with `cast_to`, `client` and `response`."""


def decoded(
    stream_class: StreamClass, client: object, url: str, parts: Sequence[bytes]
) -> list[JSON]:
    """The events the SDK's `Stream` makes of `parts` answering a POST to `url`: its
    `SSEDecoder` and the checks of `Stream.__stream__`, with `cast_to=object` so that each
    event is the JSON value the SDK parsed instead of a model. What the SDK raises is
    raised."""
    request = httpx2.Request("POST", url)
    response = event_stream_response(request, parts)
    return list(stream_class(cast_to=object, client=client, response=response))


class OfflineSdk(Generic[_Client]):
    """One SDK's wire layer, offline: its `client` class answered in memory at `base_url`,
    and its `Stream` class's decoding of the byte pieces answering a POST to the stream's
    `path` there.

    `api_key` is never sent anywhere: every client's transport is in memory.
    """

    def __init__(
        self,
        client: Callable[..., _Client],
        stream_class: StreamClass,
        *,
        base_url: str,
        path: str,
        api_key: str,
    ) -> None:
        self._client = client
        self._stream_class = stream_class
        self.base_url = base_url
        self._stream_url = base_url + path
        self.api_key = api_key
        # Decoding sends no request: one client, built once, serves every decode.
        self._decoding_client = self.client(refusing)

    def client(self, handler: Handler) -> _Client:
        """The SDK's client whose every request is answered by `handler`, in memory."""
        return sdk_client(self._client, handler, api_key=self.api_key, base_url=self.base_url)

    def decode(self, parts: Sequence[bytes]) -> list[JSON]:
        """The events the SDK's `Stream` makes of `parts` (`decoded`); what the SDK
        raises is raised."""
        return decoded(self._stream_class, self._decoding_client, self._stream_url, parts)

    def read(self, handler: Handler, reading: Callable[[_Client], _Read]) -> _Read:
        """What `reading` reads with the SDK's client answered by `handler`, the SDK's
        warnings silenced (`quiet`); the client is closed after, whatever happens."""
        client = self.client(handler)
        try:
            with quiet():
                return reading(client)
        finally:
            client.close()
