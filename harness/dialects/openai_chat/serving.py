"""`refold serve` for OpenAI Chat Completions: the endpoint, and how a case is drawn.

`POST /v1/chat/completions` answers a drawn `chat.completion`, picked by the request's
`seed` (OpenAI's own request field; 0 when absent), or with `"stream": true` its chunks as
SSE `data:` frames ended by `data: [DONE]`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ...serve.endpoint import Endpoint, ServedCase, drawn, error_envelope

__all__ = ["ENDPOINT"]


def chat_case(case_seed: int, features: Collection[str], families: Collection[int]) -> ServedCase:
    """An OpenAI chat completion, its chunks and their SSE bytes (ending `[DONE]`)."""
    from refold.strategies.chat import chunk_splits, completions
    from refold.strategies.wire import sse_bytes

    def case(data: Any) -> ServedCase:
        completion = data.draw(completions(features=frozenset(features)))
        chunks = data.draw(chunk_splits(completion, families=frozenset(families)))
        return ServedCase(completion, chunks, data.draw(sse_bytes(chunks, done=True)))

    return drawn(case_seed, case)


ENDPOINT = Endpoint(
    path="/v1/chat/completions",
    client_base="/v1",
    features=frozenset({"text", "choices", "tool_calls", "refusal", "logprobs", "usage"}),
    families=frozenset(range(1, 9)),
    draw=chat_case,
    error=error_envelope("invalid_request_error"),
)
"""Where and how `refold serve --dialect openai-chat` answers."""
