"""Target `anthropic-stream`: anthropic-sdk-python's whole streaming path,
`client.messages.stream(...).get_final_message()`, offline.

The events are written as the SSE bytes Anthropic sends (one frame each, named by the
data's `type`: `refold.dialects.anthropic_messages.targets._wire.sse_frames`) and served, frame by
frame, by an `httpx2.MockTransport` (the SDK's HTTP library, an httpx fork) to an
`Anthropic` client with a dummy key; no request leaves the process. So everything the
SDK does between the socket and the user runs unmodified: its `SSEDecoder`, the
filtering of `Stream.__stream__` (ping skipped, `event: error` raised), `construct_type`
into `RawMessageStreamEvent`, `MessageStream` (events before `message_start` skipped)
and `accumulate_event`.

The result is `get_final_message()`, what the SDK's documentation tells users to call.
Where it raises although a snapshot exists (an `error` event mid-stream raises
`APIStatusError` from the SSE layer; a crash inside `accumulate_event`, such as a
`message_delta` without usage, is re-raised), the target raises too: that is what a user
of `.stream()` sees, and the partial snapshot is reachable only through
`current_message_snapshot`, which the user would have to know to catch the error for.
A stream with no `message_start` leaves no snapshot and `get_final_message()` fails its
own `assert`; the target raises that AssertionError.

The Message is dumped as the `anthropic` target dumps it (`in_spec_shape`: the fields that
were set, as JSON). Its `sse` decoder is the same SDK decoder, the one this path reads
the bytes with, and its `FEATURES` are that target's. Not `lifecycle` here either:
`MessageStream` keeps no finished state (`get_final_message()` returns a truncated
stream's snapshot as final) and records no error (it raises), so the lifecycle interface
has nothing of the SDK's to read.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject
from refold.targets.sdk.offline_reproducer import offline_reproducer

from ._wire import SDK, serving, sse_frames
from .anthropic import FEATURES, in_spec_shape, sdk_version

__all__ = ["FEATURES", "REPRODUCER", "fold", "refold_target"]


_REQUEST: dict[str, Any] = {
    "model": "claude-refold-offline",
    "max_tokens": 1,
    "messages": [{"role": "user", "content": "refold"}],
}


def fold(events: list[JSON]) -> JSONObject:
    """Serve `events` as SSE to `client.messages.stream()`; its final message."""
    return in_spec_shape(SDK.read(serving(events, sse_frames), _final_message))


def _final_message(client: Any) -> Any:
    with client.messages.stream(**_REQUEST) as stream:
        return stream.get_final_message()


refold_target = {
    "name": "anthropic-stream",
    "dialect": "anthropic-messages",
    "fold": fold,
    "features": FEATURES,
    "sse": SDK.decode,
    "description": f"anthropic-python {sdk_version()}: messages.stream().get_final_message() "
    f"over an in-memory transport (refold.dialects.anthropic_messages.targets.anthropic_stream)",
}
"""The declaration `--target anthropic-stream` loads."""

REPRODUCER = offline_reproducer(
    "client.messages.stream",
    ('model="claude-offline", max_tokens=1', 'messages=[{"role": "user", "content": "hi"}]'),
    library="anthropic-sdk-python",
    client="anthropic.Anthropic",
    base_url="http://sdk.invalid",
    frame=r'''f"event: {event.get('type')}\ndata: {json.dumps(event)}\n\n"''',
    final="get_final_message",
)
"""The program an upstream report gives the SDK's maintainers (`{stream}`: the stream, a
list literal of one JSON text per event, `refold.targets.sdk.reproducers`): what `fold`
does, without refold."""
