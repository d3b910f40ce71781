"""`refold serve` for OpenAI Responses: the endpoint, and how a case is drawn.

`POST /v1/responses` answers a drawn `Response`, picked by the request's `seed` (an extra
body field here; 0 when absent), or with `"stream": true` its events, each SSE frame named by
its `type`, and no `[DONE]`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ...serve.endpoint import Endpoint, ServedCase, drawn, error_envelope

__all__ = ["ENDPOINT"]


def responses_case(
    case_seed: int, features: Collection[str], families: Collection[int]
) -> ServedCase:
    """An OpenAI `Response`, its events and their SSE bytes: every frame named by its
    event's `type` (`event: <type>` + `data: <json>`) and no `[DONE]`, as OpenAI sends
    them."""
    from hypothesis import strategies as st

    from refold.strategies.responses import event_splits, responses, sse_bytes

    def case(data: Any) -> ServedCase:
        # Hypothesis makes its second example (the one kept) differ from the first in its
        # first choice, never the simplest one there: drawn first, the status would never
        # be `completed`. A throwaway first choice takes that.
        data.draw(st.integers(0, 2**16))
        chosen = frozenset(features)
        response = data.draw(responses(features=chosen))
        events = data.draw(event_splits(response, families=frozenset(families), features=chosen))
        return ServedCase(response, list(events), data.draw(sse_bytes(events, event_lines=True)))

    return drawn(case_seed, case)


ENDPOINT = Endpoint(
    path="/v1/responses",
    client_base="/v1",
    features=frozenset({"text", "tool_calls", "refusal", "reasoning", "annotations", "usage"}),
    families=frozenset(range(1, 8)),
    draw=responses_case,
    error=error_envelope("invalid_request_error"),
)
"""Where and how `refold serve --dialect openai-responses` answers."""
