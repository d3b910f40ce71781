"""SSE decoders: the reference's, openai-python's and httpx-sse's, in one shape.

A target's `sse` decoder (see `refold.targets.Target.sse`) is what the `sse` suite checks:
the built-in `reference` target carries `decode_reference`, `openai` carries
`decode_openai`. httpx-sse is no target's decoder; it and openai-python's are checked
directly, whatever `--target` is, by tests/dialects/openai_chat/test_sdk_sse_decoders.py.

A decoder turns a byte stream, given in the pieces the network delivered, into the
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
from typing import Any, TypeAlias

import httpx

from refold.reference.sse import Event, EventStreamDecoder

from ._requires import require

__all__ = [
    "AnySSEDecode",
    "DecodedStream",
    "SSEDecode",
    "decode_httpx_sse",
    "decode_openai",
    "decode_reference",
]


@dataclass(frozen=True)
class DecodedStream:
    """What a client made of a byte stream: its events and its reconnection time."""

    events: tuple[Event, ...]
    retry: int | None


SSEDecode: TypeAlias = Callable[[Sequence[bytes]], DecodedStream]
"""A decoder of the WHATWG event layer (the chat dialect's wire rules)."""

AnySSEDecode: TypeAlias = Callable[[Sequence[bytes]], Any]
"""A target's decoder in any dialect: `SSEDecode`, or bytes to the stream's items."""
"""A decoder: the byte pieces the network delivered in, what a client made of them out."""


def decode_reference(parts: Sequence[bytes]) -> DecodedStream:
    """Decode with the reference's `EventStreamDecoder` (WHATWG)."""
    decoder = EventStreamDecoder()
    events = [event for part in parts for event in decoder.feed(part)] + decoder.close()
    return DecodedStream(
        tuple(Event(e.type, e.data, e.last_event_id) for e in events), decoder.retry
    )


def decode_openai(parts: Sequence[bytes]) -> DecodedStream:
    """Decode with openai-python's `SSEDecoder.iter_bytes` (needs the `openai` extra)."""
    streaming = require("openai._streaming", extra="openai")
    return _mapped(streaming.SSEDecoder().iter_bytes(iter(parts)))


def decode_httpx_sse(parts: Sequence[bytes]) -> DecodedStream:
    """Decode with httpx-sse's `EventSource.iter_sse` (needs the `openai` extra)."""
    httpx_sse = require("httpx_sse", extra="openai")
    response = httpx.Response(
        200, headers={"content-type": "text/event-stream"}, content=iter(parts)
    )
    return _mapped(httpx_sse.EventSource(response).iter_sse())


def _mapped(events: Iterator[Any]) -> DecodedStream:
    decoded: list[Event] = []
    retry: int | None = None
    for event in events:
        decoded.append(Event(event.event or "message", event.data, event.id or ""))
        retry = event.retry if event.retry is not None else retry
    return DecodedStream(tuple(decoded), retry)
