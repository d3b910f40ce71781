"""Target `anthropic`: anthropic-sdk-python's `accumulate_event`, the fold behind
`MessageStream`.

Each event is built the way the SDK's own `Stream` builds it (`construct_type` into the
`RawMessageStreamEvent` union, lenient, no validation) and handed to
`anthropic.lib.streaming._messages.accumulate_event` with the snapshot and the JSON
buffers of the previous call, every event, the first included: this is `accumulate_event`
alone (the research's PY-acc), not `MessageStream`, which skips events before
`message_start` and gets no `ping` or `error` from its `Stream` (that path is the
`anthropic-stream` target). No event gives no snapshot: the fold then raises, as there
is no Message to read.

The result is the snapshot, a `ParsedMessage`, dumped with `to_dict(mode="json")`: only
the fields that were set (so the `null` defaults of fields no event carried, such as
`container` or a text block's `citations`, are not invented), by their wire names, unknown
keys kept (the SDK's models allow extra keys, so an unknown block stays a block with its
own `type`, built as a `ParsedTextBlock`). The SDK's one addition, a text block's
`parsed_output`, is set only for structured output (`output_format`), which the target
never asks for, so it never appears. Nothing is renamed, dropped or repaired. SDK
warnings (pydantic serializer warnings on an unknown block) are silenced: a warning is
not a result.

The target's `sse` decoder is the SDK's own `SSEDecoder` with the filtering of its
`Stream` (`refold.dialects.anthropic_messages.targets._wire.SDK.decode`).
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject
from refold.reference.anthropic import FEATURES as _SPEC_FEATURES
from refold.targets.sdk._requires import quiet, require

from ._wire import SDK

__all__ = ["FEATURES", "REPRODUCER", "fold", "in_spec_shape", "refold_target", "sdk_version"]

_anthropic = require("anthropic", extra="anthropic")
from anthropic._models import construct_type  # noqa: E402
from anthropic.lib.streaming._messages import accumulate_event  # noqa: E402
from anthropic.types import RawMessageStreamEvent  # noqa: E402

FEATURES = frozenset(_SPEC_FEATURES) - {"lifecycle"}
"""Everything a `Message` snapshot can hold, and `sse` for the SDK's decoder. Not
`lifecycle`: `accumulate_event` keeps no finished state and records no error (an `error`
event matches none of its branches), so the lifecycle interface (finished, error) has
nothing of the SDK's to read; a fabricated one would be refold's, not the SDK's."""


def sdk_version() -> str:
    """The installed anthropic-sdk-python version."""
    return str(_anthropic.__version__)


def fold(events: list[JSON]) -> JSONObject:
    """Fold `events` with `accumulate_event`, from no snapshot, each built as `Stream`
    builds it."""
    snapshot: Any = None
    buffers: dict[int, bytes] = {}
    with quiet():
        for event in events:
            built: Any = construct_type(type_=RawMessageStreamEvent, value=event)
            snapshot = accumulate_event(event=built, current_snapshot=snapshot, json_bufs=buffers)
        if snapshot is None:
            raise ValueError("accumulate_event was given no event: there is no snapshot")
        return in_spec_shape(snapshot)


def in_spec_shape(snapshot: Any) -> JSONObject:
    """An SDK `Message` (a snapshot or a `get_final_message()`) as the spec's Message:
    its fields that were set, as JSON, by wire name."""
    with quiet():
        dumped: JSONObject = snapshot.to_dict(mode="json", exclude_unset=True)
    return dumped


refold_target = {
    "name": "anthropic",
    "dialect": "anthropic-messages",
    "fold": fold,
    "features": FEATURES,
    "sse": SDK.decode,
    "description": f"anthropic-python {sdk_version()}: accumulate_event "
    f"(refold.dialects.anthropic_messages.targets.anthropic)",
}
"""The declaration `--target anthropic` loads."""

REPRODUCER = '''"""Feeds a stream of events to anthropic-sdk-python's accumulate_event (the fold
behind `client.messages.stream()`) and prints the Message it builds."""
import json

from anthropic._models import construct_type
from anthropic.lib.streaming._messages import accumulate_event
from anthropic.types import RawMessageStreamEvent

EVENTS = [json.loads(item) for item in {stream}]

snapshot = None
buffers: dict[int, bytes] = {}
for event in EVENTS:
    built = construct_type(type_=RawMessageStreamEvent, value=event)
    snapshot = accumulate_event(event=built, current_snapshot=snapshot, json_bufs=buffers)
print(json.dumps(snapshot.to_dict(mode="json", exclude_unset=True), indent=2))
'''
"""The program an upstream report gives the SDK's maintainers (`{stream}`: the stream, a
list literal of one JSON text per event, `refold.targets.sdk.reproducers`): the fold `fold`
runs, without refold."""
