"""Target `pydantic-ai-gemini-events`: pydantic-ai's streamed-response events of its
`GoogleModel` as provider-neutral events (events.md, dialect `provider-events`), for the
frames of `gemini-generate-content` (gemini-fold.md, "Provider-neutral events").

The adapter of `pydantic-ai-events` (`refold.dialects.provider_events.targets.pydantic_ai`,
whose docstring gives the mapping table), with `GoogleModel` under it: pydantic-ai's
`GoogleProvider` builds a google-genai `Client` on an `httpx2` client whose
`MockTransport` streams the body of `streamGenerateContent?alt=sse` chunk by chunk, each
chunk written as one `data:` line as Google sends it (no event name, no sentinel). Each
Opaque is named `message` (Gemini sends no SSE event names, EV-OPAQUE-TYPE).

A target of its own, not a fourth source of `pydantic-ai-events`: it needs google-genai
(`pydantic-ai-slim[google]`, in the `pydantic-ai` extra), and the findings pinned for the
other three models stay those of the models they name. What 2.68.0 breaks on Gemini
streams is pinned by tests/dialects/provider_events/test_pydantic_ai_gemini_events_target.py.
"""

from __future__ import annotations

from refold.targets.sdk._requires import require

from ._pydantic_ai_driver import GEMINI, library_version
from .pydantic_ai import PROVIDER, PydanticAIEvents

require("google.genai", extra="pydantic-ai")

__all__ = ["PydanticAIGeminiEvents", "refold_target"]


class PydanticAIGeminiEvents(PydanticAIEvents):
    """The events adapter for Gemini streams: pydantic-ai's `GoogleModel`."""

    accepts = (GEMINI,)


refold_target = {
    "name": "pydantic-ai-gemini-events",
    "dialect": "provider-events",
    "adapter": PydanticAIGeminiEvents,
    "accepts": list(PydanticAIGeminiEvents.accepts),
    "provider": PROVIDER,
    "features": ["events"],
    "description": f"pydantic-ai {library_version()}: model_request_stream events of "
    f"GoogleModel (Gemini API, streamGenerateContent?alt=sse) over an in-memory "
    f"transport fed chunk by chunk "
    f"(refold.dialects.provider_events.targets.pydantic_ai_gemini)",
}
"""The declaration `--target pydantic-ai-gemini-events` loads."""
