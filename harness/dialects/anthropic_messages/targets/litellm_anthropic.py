"""Target `litellm-anthropic`: litellm's Anthropic provider stream, folded and shown as a Message.

Dialect `anthropic-messages`. This measures one half of litellm: the **completion path**,
`litellm.completion(model="anthropic/…", stream=True)`, the half that folds, with only the HTTP
response replaced. Its Anthropic provider reads the response's SSE lines with
`ModelResponseIterator` (`llms/anthropic/chat/handler.py`), whose `chunk_parser` turns each event
into an OpenAI-style chunk; `CustomStreamWrapper`, the iterator `litellm.completion` returns,
post-processes them (finish reasons, the end-of-stream check); the caller's
`litellm.stream_chunk_builder` folds what it yields into a `ModelResponse`; litellm's own
/v1/messages adapter, `LiteLLMAnthropicMessagesAdapter.translate_openai_response_to_anthropic`,
turns that back into Anthropic's Message shape, whose JSON is the result (the research's "round
trip", §2.3). Each event is handed to the iterator as the `data:` line `iter_sse_lines` gives it
(the `event:` lines, which the iterator answers with empty placeholder chunks, are not sent).
The wrapper is given a bare `Logging` object: no callbacks are configured, nothing is sent.

Not measured: the pass-through half, `litellm.anthropic.messages.create(stream=True)` (and the
proxy's /v1/messages route to an Anthropic model), hands the caller the upstream events unfolded;
the only fold on that path, `llms/anthropic/messages/stream_assembly.py`
`build_complete_streaming_response`, rebuilds the response litellm logs and bills, with the same
`chunk_parser` and `stream_chunk_builder` as here, as a chat-shaped `ModelResponse`.

The result is litellm's, mapped by nothing but the adapter: litellm's per-stream generated id
replaces the message id, text blocks are merged, stop reasons go through OpenAI finish reasons
(docs/sdk-conformance.md lists what fails). litellm would fetch a model price map when imported:
`LITELLM_LOCAL_MODEL_COST_MAP=True` asks for the bundled copy, so the target runs offline;
`suppress_debug_info` and `disable_streaming_logging` keep its console notices and per-chunk
logging threads out of the run. The call names model `claude-refold-offline`, and litellm
reports that name, not message_start's `model` (AM-START-BASE, with the id). Claims every content
feature and `usage`; not `lifecycle` (a whole-list fold) nor `sse` (litellm has no byte-level
decoder entry point to hand the `sse` suite; see refold.dialects.openai_chat.targets.litellm).
"""

from __future__ import annotations

import json
from typing import Any

from refold.reference import JSON, JSONObject
from refold.reference.anthropic import FEATURES as _SPEC_FEATURES
from refold.targets.sdk._requires import quiet
from refold.targets.sdk.litellm_completion import (
    built,
    completion_stream,
    data_lines,
    sdk_version,
)

__all__ = ["FEATURES", "fold", "refold_target", "sdk_version"]

# After litellm_completion, which imports litellm offline and quiet.
from litellm.llms.anthropic.chat.handler import ModelResponseIterator
from litellm.llms.anthropic.messages.adapters.transformation import (
    LiteLLMAnthropicMessagesAdapter,
)

FEATURES = frozenset(_SPEC_FEATURES) - {"lifecycle", "sse"}
"""Every content feature and usage; not `lifecycle`, `sse` (see the module docstring)."""

_MODEL = "claude-refold-offline"
"""The model the call names (each chunk carries message_start's model)."""


def fold(events: list[JSON]) -> JSONObject:
    """Fold `events` through litellm's Anthropic provider, `stream_chunk_builder` and its
    Messages adapter."""
    lines = data_lines(events)
    with quiet():
        chunks = list(
            completion_stream(ModelResponseIterator, lines, model=_MODEL, provider="anthropic")
        )
        response = built(chunks)
        message = LiteLLMAnthropicMessagesAdapter().translate_openai_response_to_anthropic(response)
    dumped: JSONObject = json.loads(json.dumps(message, default=_dumped))
    return dumped


def _dumped(value: Any) -> Any:
    """litellm's result nests pydantic models in plain dicts."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    raise TypeError(f"litellm returned a {type(value).__name__}, which is not JSON")


refold_target = {
    "name": "litellm-anthropic",
    "dialect": "anthropic-messages",
    "fold": fold,
    "features": FEATURES,
    "description": f"litellm {sdk_version()}: completion path (ModelResponseIterator, "
    f"CustomStreamWrapper, stream_chunk_builder), shown by "
    f"translate_openai_response_to_anthropic "
    f"(refold.dialects.anthropic_messages.targets.litellm_anthropic)",
}
"""The declaration `--target litellm-anthropic` loads."""
