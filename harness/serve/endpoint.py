"""What `refold serve` answers for a dialect: an `Endpoint` (where, what is drawn by default,
the drawing) and the `ServedCase` it draws. Each dialect's package builds its own endpoint
(`Dialect.endpoint`) with `drawn`; `refold.serve.cases` collects them from the registry.

A case is drawn from the dialect's strategies with the request's seed: the final result
(the non-streamed body), a lossless split of it into stream items (which the reference
folds back to the result) and the byte pieces of their server-sent events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from refold.reference import JSON, JSONObject

__all__ = ["Draw", "Endpoint", "ServedCase", "drawn"]


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
