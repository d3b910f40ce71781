"""What a runtime may persist: every provider frame and the raw response id removed (§3).

strip(x) removes, at any depth, every key named `opaque` or `payload` (the provider frames
of events, the turn's dialect fold) and `response_id` (PERSIST-STRIP, PERSIST-RESPONSE-ID).
One exception keeps it lossless (PERSIST-PORTABLE): a tool call's `arguments` object is
the model's data, not a provider frame, and is copied verbatim, so a tool whose parameter
is called `payload` keeps it.
"""

from __future__ import annotations

from .._json import JSON, copy_json

__all__ = ["STRIPPED_KEYS", "strip"]

STRIPPED_KEYS = frozenset({"opaque", "payload", "response_id"})
"""The keys strip removes wherever they occur outside a call's arguments."""

_DATA_KEY = "arguments"
"""ToolCall.arguments: portable data, never searched for frame keys."""


def strip(value: JSON) -> JSON:
    """Return `value` without provider frames or response ids, as a new value.

    Idempotent (PERSIST-IDEMPOTENT); every portable field is kept unchanged: `type`,
    `delta`, `id`, `name`, `call`, `usage`, `event_type` and the turn's portable fields
    (PERSIST-PORTABLE). An Opaque event is kept as `{"type": "Opaque", "event_type"}`.
    """
    if isinstance(value, dict):
        return {
            key: copy_json(item) if key == _DATA_KEY else strip(item)
            for key, item in value.items()
            if key not in STRIPPED_KEYS
        }
    if isinstance(value, list):
        return [strip(item) for item in value]
    return value
