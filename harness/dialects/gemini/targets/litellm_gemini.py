"""Target `litellm-gemini`: litellm's Gemini provider stream, folded, projected onto a response.

Dialect `gemini-generate-content`. This measures the half of litellm that folds a Gemini
stream: `litellm.completion(model="gemini/…", stream=True)` (and the proxy's
`/chat/completions` route to a Gemini model) reads the `alt=sse` lines with
`ModelResponseIterator` (`llms/vertex_ai/gemini/vertex_and_google_ai_studio_gemini.py`), whose
`chunk_parser` turns each chunk into an OpenAI-style chat chunk; `CustomStreamWrapper`, the
iterator `litellm.completion` returns, post-processes them (finish reasons, the
end-of-stream check); the caller's `litellm.stream_chunk_builder` folds what it yields into
a `ModelResponse`. As in litellm's own Gemini path, the wrapper gets the iterator from its
`make_call` (`fetch_sync_stream`, which starts it with `__iter__`); the iterator reads each
chunk as the `data:` line litellm's `iter_sse_lines` gives it, and gets no `resume` (one
served stream is one call: no continuation hop is opened). Wrapper and iterator share a
bare `Logging` object: no callbacks are configured, nothing is sent.

litellm builds a chat `ModelResponse`, not a response. The projection is litellm's own chat
→ Gemini transformation, `GoogleGenAIAdapter.translate_completion_to_generate_content`
(`google_genai/adapters/transformation.py`, what `litellm.google_genai.generate_content`
returns for a model reached through the chat adapter). Of what it returns, the places built
from the stream are compared (`PROJECTION`, `refold.run.projection`): each candidate's
`content` (a text part from the message's `content`, a `functionCall` {name, args} per tool
call, as the transformation builds them from choice 0), `finishReason` (mapped from the chat
finish reason), and `usageMetadata`'s prompt, candidates and total counts. Not compared,
because the transformation fills them itself: `index` (always 0), `safetyRatings` (always
`[]`); nor anything it never writes (`modelVersion`, `responseId`, other candidate keys,
prompt feedback, grounding, citations). The rules owning only such places are not judged.
Not judged either, because not claimed: `lifecycle` (a whole-list fold) and `sse` (litellm
has no byte-level decoder entry point).

`LITELLM_LOCAL_MODEL_COST_MAP=True`, `suppress_debug_info` and `disable_streaming_logging`
(set by `refold.targets.sdk.litellm_completion`) keep the run offline and quiet; neither
changes a result.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from refold.reference import JSON, JSONObject
from refold.targets.sdk._requires import quiet
from refold.targets.sdk.litellm_completion import built, data_lines, offline_logging, sdk_version

__all__ = ["FEATURES", "MODEL", "PROJECTION", "fold", "refold_target", "sdk_version"]

# After litellm_completion, which imports litellm offline and quiet.
from litellm.google_genai.adapters.transformation import GoogleGenAIAdapter
from litellm.litellm_core_utils.streaming_handler import CustomStreamWrapper
from litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini import (
    ModelResponseIterator,
)

FEATURES = frozenset(
    {
        "text",
        "candidates",
        "thinking",
        "tool_calls",
        "streamed_arguments",
        "code_execution",
        "media",
        "usage",
        "robustness",
    }
)
"""Everything a candidate's content can hold, and usage; not `lifecycle`, `sse` (see the
module docstring)."""

PROJECTION: dict[str, Any] = {
    "pointers": [
        "/candidates/*/content",
        "/candidates/*/finishReason",
        "/usageMetadata/promptTokenCount",
        "/usageMetadata/candidatesTokenCount",
        "/usageMetadata/totalTokenCount",
    ],
    "builds": "a chat ModelResponse (stream_chunk_builder), mapped to a response by its own "
    "GoogleGenAIAdapter.translate_completion_to_generate_content",
}
"""The places of the response this target is compared on (the module docstring)."""

MODEL = "gemini-refold-offline"
"""The model the call names."""
_PROVIDER = "gemini"


def fold(chunks: list[JSON]) -> JSONObject:
    """Fold `chunks` through litellm's Gemini provider and `stream_chunk_builder`, projected
    onto a response by litellm's own chat → Gemini transformation."""
    # The whole call is quiet: litellm's thinking-block types make pydantic warn when first
    # built (wherever in the call that is), which says nothing of a fold.
    with quiet():
        logging = offline_logging(model=MODEL, provider=_PROVIDER)

        def make_call(client: object) -> ModelResponseIterator:
            lines: Iterator[str] = data_lines(chunks)
            return ModelResponseIterator(
                streaming_response=lines, sync_stream=True, logging_obj=logging
            )

        wrapper = CustomStreamWrapper(
            completion_stream=None,
            make_call=make_call,
            model=MODEL,
            custom_llm_provider=_PROVIDER,
            logging_obj=logging,
        )
        response = built(list(wrapper))
        transformed = GoogleGenAIAdapter().translate_completion_to_generate_content(response)
    dumped: JSONObject = json.loads(json.dumps(transformed, default=str))
    return dumped


refold_target = {
    "name": "litellm-gemini",
    "dialect": "gemini-generate-content",
    "fold": fold,
    "features": FEATURES,
    "projection": PROJECTION,
    "description": f"litellm {sdk_version()}: Gemini provider (ModelResponseIterator, "
    f"CustomStreamWrapper, stream_chunk_builder), projected by "
    f"GoogleGenAIAdapter.translate_completion_to_generate_content "
    f"(refold.dialects.gemini.targets.litellm_gemini)",
}
"""The declaration `--target litellm-gemini` loads."""
