"""What `refold serve` answers for a dialect: an `Endpoint` (where, what is drawn by default,
the drawing) and the `ServedCase` it draws. Each dialect's package builds its own endpoint
(`Dialect.endpoint`) with `drawn`; `refold.serve.cases` collects them from the registry.

A case is drawn from the dialect's strategies with the request's seed: the final result
(the non-streamed body), a lossless split of it into stream items (which the reference
folds back to the result) and the byte pieces of their server-sent events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from refold.reference import JSON, JSONObject

__all__ = ["Asked", "Draw", "Endpoint", "ServedCase", "drawn", "error_envelope"]


@dataclass(frozen=True)
class ServedCase:
    """One drawn case: the result, its stream items and the byte pieces carrying them."""

    result: JSONObject
    items: list[JSON]
    parts: list[bytes]
    framings: Mapping[str, list[bytes]] = field(default_factory=dict)
    """The items' bytes in the API's other framings, by name (Gemini's JSON array
    without `alt=sse`: "array"); `parts` is the SSE framing."""

    def framed(self, framing: str) -> list[bytes]:
        """The byte pieces of `framing` ("sse": `parts`)."""
        return self.parts if framing == "sse" else self.framings[framing]

    @property
    def completion(self) -> JSONObject:
        """The chat dialect's name for `result` (a `chat.completion`)."""
        return self.result

    @property
    def chunks(self) -> list[JSON]:
        """The chat dialect's name for `items` (its chunks)."""
        return self.items


Draw = Callable[[int, frozenset[str], frozenset[int]], ServedCase]


class Asked(NamedTuple):
    """What a request path asks of an endpoint (`Endpoint.asked`)."""

    stream: bool | None
    """Whether the stream is asked for, else the result as one JSON body; None: the
    request body's `"stream": true` says."""
    framing: str = "sse"
    """The stream's framing: "sse" (`ServedCase.parts`) or a name of `ServedCase.framings`."""
    content_type: str = "text/event-stream"
    """The streamed answer's content type."""


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
    route: Callable[[str], Asked | None] | None = None
    """For an API whose request path says what is asked (Gemini: the model and the
    method in the path, `?alt=sse` for SSE): what a path, with its query, asks, or None
    for a path not answered. None: the path must be `path`, and the body's `"stream":
    true` asks for the stream."""
    seed: Callable[[JSONObject], int] | None = None
    """The case seed a request body names (None: its `seed` field, 0 when absent)."""
    asking: str = "body `seed` picks the case, `stream` streams it"
    """How a request picks and streams its case, as `refold serve` tells its user."""

    def asked(self, path: str) -> Asked | None:
        """What a request to `path` asks, or None when this endpoint does not answer it."""
        if self.route is not None:
            return self.route(path)
        return Asked(stream=None) if path.split("?", 1)[0].rstrip("/") == self.path else None

    def seed_of(self, request: JSONObject) -> int:
        """The case seed `request` names (0 when it names none)."""
        if self.seed is not None:
            return self.seed(request)
        value = request.get("seed")
        return value if isinstance(value, int) and not isinstance(value, bool) else 0


def drawn(case_seed: int, case: Callable[[Any], ServedCase]) -> ServedCase:
    """The case `case` draws with Hypothesis from `case_seed` (the same seed, the same case)."""
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


def error_envelope(error_type: str) -> Callable[[str], JSONObject]:
    """An `Endpoint.error` for an API whose error body is one object under the key `error`
    holding the message, then `type`: `{"error": {"message": ..., "type": error_type}}`."""

    def error(message: str) -> JSONObject:
        return {"error": {"message": message, "type": error_type}}

    return error
