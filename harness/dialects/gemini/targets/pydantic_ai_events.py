"""Target `pydantic-ai-gemini-events`: pydantic-ai's streamed-response events of its
`GoogleModel` as provider-neutral events (events.md, dialect `provider-events`), for the
frames of `gemini-generate-content` (gemini-fold.md, "Provider-neutral events").

The adapter every pydantic-ai events target shares (`refold.targets.sdk.pydantic_ai_events`;
`refold.dialects.provider_events.targets.pydantic_ai`'s docstring gives the mapping
table), with `GoogleModel` under it: pydantic-ai's `GoogleProvider` builds a google-genai
`Client` on an `httpx2` client whose `MockTransport` streams the body of
`streamGenerateContent?alt=sse` chunk by chunk, each chunk written as one `data:` line as
Google sends it (no event name, no sentinel). Each Opaque is named `message` (Gemini sends
no SSE event names, EV-OPAQUE-TYPE).

A target of its own, not a fourth source of `pydantic-ai-events`: it needs google-genai
(`pydantic-ai-slim[google]`, in the `pydantic-ai` extra), and the findings pinned for the
other three models stay those of the models they name. What 2.68.0 breaks on Gemini
streams is pinned by tests/dialects/gemini/test_pydantic_ai_gemini_events_target.py.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import ClassVar

from refold.reference import JSON
from refold.targets.sdk._requires import require
from refold.targets.sdk.pydantic_ai_events import (
    OFFLINE_API_KEY,
    OFFLINE_BASE_URL,
    OFFLINE_MODEL,
    PROVIDER,
    PydanticAIEvents,
    PydanticAISource,
    library_version,
)

require("google.genai", extra="pydantic-ai")
import httpx2  # noqa: E402
from pydantic_ai.models import Model  # noqa: E402
from pydantic_ai.models.google import GoogleModel  # noqa: E402
from pydantic_ai.providers.google import GoogleProvider  # noqa: E402

__all__ = ["PydanticAIGeminiEvents", "refold_target"]

GEMINI = "gemini-generate-content"
_TIMEOUT = 600.0
"""Seconds; GoogleProvider warns about a client with httpx's 5-second default."""


def _google_model(transport: httpx2.MockTransport) -> Model:
    """`GoogleModel` on the Gemini API (google-genai asks for `alt=sse`)."""
    http_client = httpx2.AsyncClient(transport=transport, timeout=_TIMEOUT)
    provider = GoogleProvider(
        api_key=OFFLINE_API_KEY, http_client=http_client, base_url=OFFLINE_BASE_URL
    )
    return GoogleModel(OFFLINE_MODEL, provider=provider)


def _sse(frame: JSON) -> bytes:
    """One `data:` line, as Google sends each chunk (there is no sentinel)."""
    return f"data: {json.dumps(frame, ensure_ascii=False)}\n\n".encode()


class PydanticAIGeminiEvents(PydanticAIEvents):
    """The events adapter for Gemini streams: pydantic-ai's `GoogleModel`."""

    sources: ClassVar[Mapping[str, PydanticAISource]] = {
        GEMINI: PydanticAISource(_google_model, _sse)
    }


refold_target = {
    "name": "pydantic-ai-gemini-events",
    "dialect": "provider-events",
    "adapter": PydanticAIGeminiEvents,
    "accepts": list(PydanticAIGeminiEvents.sources),
    "provider": PROVIDER,
    "features": ["events"],
    "description": f"pydantic-ai {library_version()}: model_request_stream events of "
    f"GoogleModel (Gemini API, streamGenerateContent?alt=sse) over an in-memory "
    f"transport fed chunk by chunk "
    f"(refold.dialects.gemini.targets.pydantic_ai_events)",
}
"""The declaration `--target pydantic-ai-gemini-events` loads."""
