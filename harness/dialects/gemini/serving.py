"""`refold serve` for Gemini: the endpoint, and how a case is drawn.

Gemini says in the request path what is asked: `POST /v1beta/models/{model}:generateContent`
answers the drawn `GenerateContentResponse`, `:streamGenerateContent?alt=sse` its chunks as
SSE events (bare `data:` frames, no sentinel), and `:streamGenerateContent` without
`alt=sse` the same chunks as one streamed JSON array (`application/json`), as Google
serves them. Vertex AI's path (`/v1/projects/P/locations/L/publishers/google/models/M:...`)
is answered alike. The seed is the request's `generationConfig.seed` (the API's own
field), else a top-level `seed`, else 0.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any
from urllib.parse import parse_qs

from refold.reference import JSONObject

from ...serve.endpoint import Asked, Endpoint, ServedCase, drawn

__all__ = ["ENDPOINT"]

_PATH = re.compile(
    r"/v1(?:beta1?)?(?:/projects/[^/]+/locations/[^/]+/publishers/google)?"
    r"/models/[^/:]+:(?P<method>streamGenerateContent|generateContent)/?"
)


def gemini_case(case_seed: int, features: Collection[str], families: Collection[int]) -> ServedCase:
    """A Gemini `GenerateContentResponse`, its chunks, and their bytes in both framings:
    `alt=sse` events (`parts`) and the JSON array (`framings["array"]`)."""
    from hypothesis import strategies as st

    from refold.strategies.gemini import array_bytes, chunk_splits, responses, sse_bytes

    def case(data: Any) -> ServedCase:
        # as the other endpoints' first choice: Hypothesis's kept example differs from
        # its first in its first choice, which would never be the simplest response
        data.draw(st.integers(0, 2**16))
        chosen = frozenset(features)
        response = data.draw(responses(features=chosen))
        chunks = data.draw(chunk_splits(response, families=frozenset(families), late_chunks=True))
        sse = data.draw(sse_bytes(chunks, keep_alives=False, multiline_data=False))
        array = data.draw(array_bytes(chunks))
        return ServedCase(response, list(chunks), sse, {"array": array})

    return drawn(case_seed, case)


def _route(path: str) -> Asked | None:
    where, _, query = path.partition("?")
    found = _PATH.fullmatch(where)
    if found is None:
        return None
    if found["method"] == "generateContent":
        return Asked(stream=False)
    if "sse" in parse_qs(query).get("alt", []):
        return Asked(stream=True)
    return Asked(stream=True, framing="array", content_type="application/json")


def _seed(request: JSONObject) -> int:
    config = request.get("generationConfig")
    value = config.get("seed") if isinstance(config, dict) else None
    if value is None:
        value = request.get("seed")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _error(message: str) -> JSONObject:
    return {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}


ENDPOINT = Endpoint(
    path="/v1beta/models/{model}:streamGenerateContent",
    client_base="",
    features=frozenset(
        {
            "text",
            "thinking",
            "tool_calls",
            "code_execution",
            "media",
            "safety",
            "citations",
            "grounding",
            "usage",
        }
    ),
    families=frozenset(range(1, 9)),
    draw=gemini_case,
    error=_error,
    route=_route,
    seed=_seed,
    asking="`generationConfig.seed` picks the case; `?alt=sse` streams SSE, without it one "
    "JSON array; `:generateContent` answers it whole",
)
"""Where and how `refold serve --dialect gemini-generate-content` answers."""
