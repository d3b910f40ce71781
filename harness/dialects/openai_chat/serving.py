"""`refold serve` for OpenAI Chat Completions: the endpoint, and how a case is drawn."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from refold.reference import JSONObject

from ...serve.endpoint import Endpoint, ServedCase, drawn

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


def _error(message: str) -> JSONObject:
    return {"error": {"message": message, "type": "invalid_request_error"}}


ENDPOINT = Endpoint(
    path="/v1/chat/completions",
    client_base="/v1",
    features=frozenset({"text", "choices", "tool_calls", "refusal", "logprobs", "usage"}),
    families=frozenset(range(1, 9)),
    draw=chat_case,
    error=_error,
)
"""Where and how `refold serve --dialect openai-chat` answers."""
