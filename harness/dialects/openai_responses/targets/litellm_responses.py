"""Target `litellm-responses`: litellm's Responses → chat bridge, folded, projected onto a Response.

Dialect `openai-responses`. This measures the half of litellm that folds a Responses stream:
`litellm.completion(model="openai/responses/…", stream=True)` (and the proxy's
`/chat/completions` route to a Responses-only model) reads the upstream Responses events with
`OpenAiResponsesToChatCompletionStreamIterator` (`completion_extras/
litellm_responses_transformation/transformation.py`), whose `chunk_parser` turns each event
into an OpenAI-style chat chunk; `CustomStreamWrapper`, the iterator `litellm.completion`
returns, post-processes them (finish reasons, the end-of-stream check); the caller's
`litellm.stream_chunk_builder` folds what it yields into a `ModelResponse`. Each event is
handed to the iterator as the `data:` line litellm's SSE reader gives it (the `event:` lines,
which it answers with empty placeholder chunks, are not sent). The wrapper gets a bare
`Logging` object: no callbacks are configured, nothing is sent.

litellm builds a chat `ModelResponse`, not a Response. The projection is litellm's own chat →
Responses transformation, `LiteLLMCompletionResponsesConfig.
transform_chat_completion_response_to_responses_api_response` (what `litellm.responses()`
returns for a chat model), given no request, less the keys it only echoes from the request
(`instructions`, `metadata`, `parallel_tool_calls`, `temperature`, `tool_choice`, `tools`,
`top_p`, `max_output_tokens`, `previous_response_id`, `reasoning`, `text`, `truncation`, `user`,
`store`: with no request they are litellm's defaults, not the stream's). Of what it returns,
the places built from the stream are compared, declared as the target's `projection`
(`PROJECTION`, `refold.run.projection`): `id`, `object`, `status` (from the finish reason:
`_responses_status_for_choice`), `incomplete_details` (from the finish reason), `error`,
`usage`, and of each `output` item (`message` items with `output_text` / `refusal` parts,
`function_call` items, `reasoning` items, as the transformation builds them from choice 0)
its `type`, `status`, `role`, `content`, `call_id`, `name`, `arguments` and `summary`. Not
compared, because the chat `ModelResponse` has no place for them and the transformation
fills them itself: `created_at` (litellm's clock), `model` (the call's model, not the
stream's), each item's `id` (generated), a reasoning item's `encrypted_content`; nor any
other top-level key. The rules owning only such places are not judged (`refold rules
--dialect openai-responses --target litellm-responses` lists them). Within the projection,
what litellm drops is a difference charged by pointer: a hosted-tool item (it comes back as
an empty message: `/output/N/type`), annotations, refusals. Not judged either, because not
claimed: `lifecycle` (a whole-list fold) and `sse` (litellm has no byte-level decoder entry
point; see refold.dialects.openai_chat.targets.litellm).

`LITELLM_LOCAL_MODEL_COST_MAP=True` asks for the bundled price map (the target runs offline);
`suppress_debug_info` and `disable_streaming_logging` keep console notices and per-chunk
logging threads out of the run; neither changes a result.
"""

from __future__ import annotations

import json
from typing import Any

from refold.reference import JSON, JSONObject
from refold.targets.sdk._requires import quiet
from refold.targets.sdk.litellm_completion import (
    built,
    completion_stream,
    data_lines,
    sdk_version,
)

__all__ = ["FEATURES", "PROJECTION", "REQUEST_ECHOES", "fold", "refold_target", "sdk_version"]

# After litellm_completion, which imports litellm offline and quiet.
from litellm.completion_extras.litellm_responses_transformation.transformation import (
    OpenAiResponsesToChatCompletionStreamIterator,
)
from litellm.responses.litellm_completion_transformation.transformation import (
    LiteLLMCompletionResponsesConfig,
)

FEATURES = frozenset(
    {"text", "tool_calls", "refusal", "reasoning", "annotations", "usage", "robustness"}
)
"""What the projection carries; not `lifecycle`, `sse` (see the module docstring)."""

REQUEST_ECHOES = (
    "instructions",
    "metadata",
    "parallel_tool_calls",
    "temperature",
    "tool_choice",
    "tools",
    "top_p",
    "max_output_tokens",
    "previous_response_id",
    "reasoning",
    "text",
    "truncation",
    "user",
    "store",
)
"""The keys the transformation copies from the request, dropped from the projection."""

PROJECTION: dict[str, Any] = {
    "pointers": [
        "/id",
        "/object",
        "/status",
        "/incomplete_details",
        "/error",
        "/usage",
        *(
            f"/output/*/{key}"
            for key in (
                "type",
                "status",
                "role",
                "content",
                "call_id",
                "name",
                "arguments",
                "summary",
            )
        ),
    ],
    "builds": "a chat ModelResponse (stream_chunk_builder), mapped to a Response by its own "
    "transform_chat_completion_response_to_responses_api_response",
}
"""The places of the Response this target is compared on (the module docstring)."""

_MODEL = "gpt-refold-offline"


def fold(events: list[JSON]) -> JSONObject:
    """Fold `events` through litellm's Responses bridge and `stream_chunk_builder`,
    projected onto a Response by litellm's own chat → Responses transformation."""
    lines = data_lines(events)
    iterator = OpenAiResponsesToChatCompletionStreamIterator
    with quiet():
        chunks = list(completion_stream(iterator, lines, model=_MODEL, provider="openai"))
        response = built(chunks)
        to_responses = LiteLLMCompletionResponsesConfig
        transformed = to_responses.transform_chat_completion_response_to_responses_api_response(
            request_input="refold", responses_api_request={}, chat_completion_response=response
        )
        dumped: JSONObject = json.loads(transformed.model_dump_json())
    return {key: value for key, value in dumped.items() if key not in REQUEST_ECHOES}


refold_target = {
    "name": "litellm-responses",
    "dialect": "openai-responses",
    "fold": fold,
    "features": FEATURES,
    "projection": PROJECTION,
    "description": f"litellm {sdk_version()}: Responses bridge "
    f"(OpenAiResponsesToChatCompletionStreamIterator, CustomStreamWrapper, "
    f"stream_chunk_builder), projected by "
    f"transform_chat_completion_response_to_responses_api_response "
    f"(refold.dialects.openai_responses.targets.litellm_responses)",
}
"""The declaration `--target litellm-responses` loads."""
