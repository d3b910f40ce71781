"""`refold serve` for Anthropic Messages: the endpoint, and how a case is drawn.

`POST /v1/messages` answers a drawn `Message`, picked by the request's `seed` (an extra body
field here; 0 when absent), or with `"stream": true` its events, each SSE frame named by its
event's type.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from refold.reference import JSONObject

from ...serve.endpoint import Endpoint, ServedCase, drawn

__all__ = ["ENDPOINT"]


def anthropic_case(
    case_seed: int, features: Collection[str], families: Collection[int]
) -> ServedCase:
    """An Anthropic `Message`, its events and their SSE bytes: every frame named by its
    event's `type` (`event: <type>` + `data: <json>`), as Anthropic sends them."""
    from refold.strategies.anthropic import event_splits, messages, sse_bytes

    def case(data: Any) -> ServedCase:
        message = data.draw(messages(features=frozenset(features)))
        events = data.draw(event_splits(message, families=frozenset(families), late_events=False))
        return ServedCase(message, list(events), data.draw(sse_bytes(events, event_lines=True)))

    return drawn(case_seed, case)


def _error(message: str) -> JSONObject:
    return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}


ENDPOINT = Endpoint(
    path="/v1/messages",
    client_base="",
    features=frozenset({"text", "citations", "tool_use", "thinking", "usage"}),
    families=frozenset(range(1, 10)),
    draw=anthropic_case,
    error=_error,
)
"""Where and how `refold serve --dialect anthropic-messages` answers."""
