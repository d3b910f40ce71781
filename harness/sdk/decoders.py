"""SSE decoders as targets of the `sse` suite: the reference, openai-python's, httpx-sse's.

A decoder target turns a byte stream, given in the pieces the network delivered, into the
events a client would see and the reconnection time it would keep. The real decoders are
run through their public path (openai-python's `SSEDecoder.iter_bytes`, httpx-sse's
`EventSource.iter_sse` over an `httpx.Response` streaming the pieces) and their events are
mapped to the reference's `Event` shape: an unset event type reads `message`, as WHATWG
dispatches it, and the reconnection time is the last `retry` any event carried (both
decoders attach it to one event instead of keeping it for the connection).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from refold.reference.sse import Event, EventStreamDecoder

from ._requires import require

__all__ = ["DECODERS", "DecodedStream", "SSEDecoderTarget", "decoder_target"]


@dataclass(frozen=True)
class DecodedStream:
    """What a client made of a byte stream: its events and its reconnection time."""

    events: tuple[Event, ...]
    retry: int | None


@dataclass(frozen=True)
class SSEDecoderTarget:
    """A named SSE decoder and the extra it needs (None: always available)."""

    name: str
    extra: str | None
    decode: Callable[[Sequence[bytes]], DecodedStream]


def _reference(parts: Sequence[bytes]) -> DecodedStream:
    decoder = EventStreamDecoder()
    events = [event for part in parts for event in decoder.feed(part)] + decoder.close()
    return DecodedStream(tuple(Event(e.type, e.data, e.last_event_id) for e in events),
                         decoder.retry)


def _openai(parts: Sequence[bytes]) -> DecodedStream:
    streaming = require("openai._streaming", extra="openai")
    return _mapped(streaming.SSEDecoder().iter_bytes(iter(parts)))


def _httpx_sse(parts: Sequence[bytes]) -> DecodedStream:
    httpx_sse = require("httpx_sse", extra="openai")
    response = httpx.Response(200, headers={"content-type": "text/event-stream"},
                              content=iter(parts))
    return _mapped(httpx_sse.EventSource(response).iter_sse())


def _mapped(events: Iterator[Any]) -> DecodedStream:
    decoded: list[Event] = []
    retry: int | None = None
    for event in events:
        decoded.append(Event(event.event or "message", event.data, event.id or ""))
        retry = event.retry if event.retry is not None else retry
    return DecodedStream(tuple(decoded), retry)


DECODERS: dict[str, SSEDecoderTarget] = {
    "reference": SSEDecoderTarget("reference", None, _reference),
    "openai": SSEDecoderTarget("openai", "openai", _openai),
    "httpx-sse": SSEDecoderTarget("httpx-sse", "openai", _httpx_sse),
}
"""The decoders the `sse` suite runs, by name."""


def decoder_target(name: str) -> SSEDecoderTarget:
    """The decoder target called `name`; KeyError lists the known names."""
    try:
        return DECODERS[name]
    except KeyError:
        raise KeyError(f"unknown SSE decoder {name!r}; known: {', '.join(DECODERS)}") from None
