"""What `refold serve` answers, per dialect: the endpoint and how a case is drawn.

An `Endpoint` is registered by dialect name (`ENDPOINTS`); the server (`refold.serve.server`)
only looks it up, so serving another dialect means registering its endpoint here:

    >>> ENDPOINTS["anthropic-messages"].path
    '/v1/messages'
    >>> ENDPOINTS["openai-responses"].path
    '/v1/responses'

A case is drawn from the dialect's strategies with the request's seed: the final result
(the non-streamed body), a lossless split of it into stream items (which the reference
folds back to the result) and the byte pieces of their server-sent events.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from refold.reference import JSON, JSONObject

__all__ = ["ENDPOINTS", "Endpoint", "ServedCase", "anthropic_case", "chat_case", "responses_case"]


@dataclass(frozen=True)
class ServedCase:
    """One drawn case: the result, its stream items and the byte pieces carrying them."""

    result: JSONObject
    items: list[JSON]
    parts: list[bytes]

    @property
    def completion(self) -> JSONObject:
        """The chat dialect's name for `result` (a `chat.completion`)."""
        return self.result

    @property
    def chunks(self) -> list[JSON]:
        """The chat dialect's name for `items` (its chunks)."""
        return self.items


Draw = Callable[[int, frozenset[str], frozenset[int]], ServedCase]


@dataclass(frozen=True)
class Endpoint:
    """How one dialect is served: where, what is drawn by default, and the drawing."""

    path: str
    """The request path answered (`/v1/chat/completions`)."""
    client_base: str
    """The part of `path` a client's base URL includes ("/v1" for OpenAI's clients, ""
    for Anthropic's, which add `/v1/messages` themselves)."""
    features: frozenset[str]
    """The features drawn when `--features` names none: what a client of the API folds."""
    families: frozenset[int]
    """Every split family the dialect's strategies know."""
    draw: Draw
    """The case for (seed, features, families)."""
    error: Callable[[str], JSONObject]
    """The body of an error answer in the API's own shape."""


def _drawn(case_seed: int, case: Callable[[Any], ServedCase]) -> ServedCase:
    # Imported here: `refold check` imports every command before pytest starts, and
    # Hypothesis imported that early could not be assertion-rewritten by pytest.
    from hypothesis import HealthCheck, Phase, given, seed, settings
    from hypothesis import strategies as st

    drawn: list[ServedCase] = []

    # Two examples, the second kept: Hypothesis's first example is always the simplest
    # one (an empty result), whatever the seed; only the later ones follow the seed.
    @settings(
        max_examples=2,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @seed(case_seed)
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        drawn.append(case(data))

    draw()
    return drawn[-1]


def chat_case(case_seed: int, features: Collection[str], families: Collection[int]) -> ServedCase:
    """An OpenAI chat completion, its chunks and their SSE bytes (ending `[DONE]`)."""
    from refold.strategies.chat import chunk_splits, completions
    from refold.strategies.wire import sse_bytes

    def case(data: Any) -> ServedCase:
        completion = data.draw(completions(features=frozenset(features)))
        chunks = data.draw(chunk_splits(completion, families=frozenset(families)))
        return ServedCase(completion, chunks, data.draw(sse_bytes(chunks, done=True)))

    return _drawn(case_seed, case)


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

    return _drawn(case_seed, case)


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

    return _drawn(case_seed, case)


def _chat_error(message: str) -> JSONObject:
    return {"error": {"message": message, "type": "invalid_request_error"}}


def _anthropic_error(message: str) -> JSONObject:
    return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}


ENDPOINTS: Mapping[str, Endpoint] = MappingProxyType(
    {
        "openai-chat": Endpoint(
            path="/v1/chat/completions",
            client_base="/v1",
            features=frozenset({"text", "choices", "tool_calls", "refusal", "logprobs", "usage"}),
            families=frozenset(range(1, 9)),
            draw=chat_case,
            error=_chat_error,
        ),
        "anthropic-messages": Endpoint(
            path="/v1/messages",
            client_base="",
            features=frozenset({"text", "citations", "tool_use", "thinking", "usage"}),
            families=frozenset(range(1, 10)),
            draw=anthropic_case,
            error=_anthropic_error,
        ),
        "openai-responses": Endpoint(
            path="/v1/responses",
            client_base="/v1",
            features=frozenset(
                {"text", "tool_calls", "refusal", "reasoning", "annotations", "usage"}
            ),
            families=frozenset(range(1, 8)),
            draw=responses_case,
            error=_chat_error,
        ),
    }
)
"""The served endpoint of every dialect, by dialect name."""
