"""The `sse` operation of the target protocol: an SSE decoder behind JSON messages.

The request carries the byte pieces the network delivered, each base64-encoded (bytes are
not JSON); the reply carries the events and the reconnection time the decoder kept:

    {"op": "sse", "parts": ["ZGF0YTogYQ==", "Cgo="]}
    {"ok": true, "events": [{"type": "message", "data": "a", "last_event_id": ""}],
     "retry": null}

In a dialect whose wire rules are about the stream's items (`Dialect.sse_layer` "items",
Anthropic's), `events` is the list of items the decoder gives the fold, and there is no
`retry`:

    {"ok": true, "events": [{"type": "message_start", "message": {...}}, ...]}

Both sides are here: the harness's (`sse_request`, `decoded_stream`, `decoded_items`) and
the one the isolated Python worker answers with (`sse_parts`, `sse_reply`, `items_reply`).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from typing import TYPE_CHECKING

from refold.reference import JSON, JSONObject
from refold.reference.sse import Event

from ..errors import TargetError, preview

if TYPE_CHECKING:
    from .sdk.decoders import DecodedStream

__all__ = [
    "decoded_items",
    "decoded_stream",
    "items_reply",
    "sse_parts",
    "sse_reply",
    "sse_request",
]

_EVENT_FIELDS = ("type", "data", "last_event_id")


def sse_request(parts: Sequence[bytes]) -> JSONObject:
    """The `sse` request for `parts`."""
    return {"op": "sse", "parts": [base64.b64encode(p).decode("ascii") for p in parts]}


def sse_parts(message: JSONObject) -> list[bytes]:
    """The byte pieces of an `sse` request; ValueError if they are not base64 strings."""
    parts = message.get("parts")
    if not isinstance(parts, list) or not all(isinstance(p, str) for p in parts):
        raise ValueError("`parts` must be a list of base64 strings")
    try:
        return [base64.b64decode(p, validate=True) for p in parts]
    except binascii.Error as exc:
        raise ValueError(f"`parts` holds a string that is not base64: {exc}") from exc


def sse_reply(stream: DecodedStream) -> JSONObject:
    """The reply fields for what a decoder made of the pieces."""
    events: list[JSON] = [
        {"type": e.type, "data": e.data, "last_event_id": e.last_event_id} for e in stream.events
    ]
    return {"events": events, "retry": stream.retry}


def decoded_stream(reply: JSONObject, where: str) -> DecodedStream:
    """The `DecodedStream` an `sse` reply describes; TargetError if it is malformed."""
    from .sdk.decoders import DecodedStream

    events, retry = reply.get("events"), reply.get("retry")
    if not isinstance(events, list) or not all(_is_event(e) for e in events):
        raise TargetError(
            f"{where}: sse replied events {preview(events)}, expected a list "
            f'of {{"type", "data", "last_event_id"}} string objects',
            kind="protocol",
        )
    if retry is not None and (not isinstance(retry, int) or isinstance(retry, bool)):
        raise TargetError(
            f"{where}: sse replied retry {preview(retry)}, expected an integer or null",
            kind="protocol",
        )
    decoded = tuple(
        Event(str(e["type"]), str(e["data"]), str(e["last_event_id"]))
        for e in events
        if isinstance(e, dict)
    )
    return DecodedStream(decoded, retry)


def items_reply(items: object) -> JSONObject:
    """The reply fields for the items a decoder made of the pieces; ValueError when the
    decoder returned something else than a list."""
    if not isinstance(items, list):
        raise ValueError(f"the SSE decoder returned {type(items).__name__}, expected a list")
    return {"events": items}


def decoded_items(reply: JSONObject, where: str) -> list[JSON]:
    """The items an `sse` reply carries; TargetError if it carries no list."""
    items = reply.get("events")
    if not isinstance(items, list):
        raise TargetError(
            f"{where}: sse replied events {preview(items)}, expected a list of the stream's items",
            kind="protocol",
        )
    return items


def _is_event(value: JSON) -> bool:
    return isinstance(value, dict) and all(isinstance(value.get(f), str) for f in _EVENT_FIELDS)
