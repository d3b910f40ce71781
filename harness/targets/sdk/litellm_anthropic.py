"""Target `litellm-anthropic`: litellm's Anthropic provider stream, folded and shown as a Message.

Dialect `anthropic-messages`. This measures one half of litellm: the **completion path**,
`litellm.completion(model="anthropic/…", stream=True)`, the half that folds. Its Anthropic
provider reads the response's SSE lines with `ModelResponseIterator`
(`llms/anthropic/chat/handler.py`), whose `chunk_parser` turns each event into an OpenAI-style
`ModelResponseStream` chunk; `litellm.stream_chunk_builder` folds the chunks into a
`ModelResponse`; litellm's own /v1/messages adapter,
`LiteLLMAnthropicMessagesAdapter.translate_openai_response_to_anthropic`, turns that back into
Anthropic's Message shape, whose JSON is the result (the research's "round trip", §2.3). Each
event is handed to the iterator as the `data:` line `iter_sse_lines` gives it; the `event:`
lines, which the iterator answers with empty placeholder chunks that litellm's
`CustomStreamWrapper` discards, are not sent, and `CustomStreamWrapper`'s own per-chunk
bookkeeping (logging, cost, callbacks) is not run: it adds no fold of its own.

Not measured: the pass-through half, `litellm.anthropic.messages.create(stream=True)` (and the
proxy's /v1/messages route to an Anthropic model), hands the caller the upstream events unfolded;
the only fold on that path, `llms/anthropic/messages/stream_assembly.py`
`build_complete_streaming_response`, rebuilds the response litellm logs and bills, with the same
`chunk_parser` and `stream_chunk_builder` as here, as a chat-shaped `ModelResponse`.

The result is litellm's, mapped by nothing but the adapter: litellm's per-stream generated id
replaces the message id, text blocks are merged, stop reasons go through OpenAI finish reasons
(docs/sdk-conformance.md lists what fails). litellm would fetch a model price map when imported:
`LITELLM_LOCAL_MODEL_COST_MAP=True` asks for the bundled copy, so the target runs offline, and
litellm's console notices ("Provider List: …") are kept off the run's output. Claims every content
feature and `usage`; not `lifecycle` (a whole-list fold) nor `sse` (litellm has no byte-level
decoder entry point to hand the `sse` suite; see refold.targets.sdk.litellm).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from typing import Any

from refold.reference import JSON, JSONObject

from ._requires import quiet, require

__all__ = ["FEATURES", "fold", "refold_target", "sdk_version"]

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
_litellm = require("litellm", extra="litellm")
from litellm.llms.anthropic.chat.handler import ModelResponseIterator  # noqa: E402
from litellm.llms.anthropic.messages.adapters.transformation import (  # noqa: E402
    LiteLLMAnthropicMessagesAdapter,
)
from litellm.types.utils import ModelResponseStream  # noqa: E402

FEATURES = frozenset({"text", "tool_use", "server_tools", "thinking", "citations",
                      "stop_details", "usage", "robustness"})
"""Every content feature and usage; not `lifecycle`, `sse` (see the module docstring)."""


def sdk_version() -> str:
    """The installed litellm version."""
    from importlib.metadata import version

    return version("litellm")


def fold(events: list[JSON]) -> JSONObject:
    """Fold `events` through litellm's Anthropic provider, `stream_chunk_builder` and its
    Messages adapter."""
    lines = iter(["data: " + json.dumps(event) for event in events])
    with quiet(), contextlib.redirect_stdout(io.StringIO()):
        iterator = ModelResponseIterator(streaming_response=lines, sync_stream=True)
        chunks = [chunk for chunk in iterator if isinstance(chunk, ModelResponseStream)]
        response: Any = _litellm.stream_chunk_builder(chunks)
        if response is None:
            raise ValueError("litellm.stream_chunk_builder returned None (no response)")
        message = LiteLLMAnthropicMessagesAdapter().translate_openai_response_to_anthropic(
            response)
    dumped: JSONObject = json.loads(json.dumps(message, default=_dumped))
    return dumped


def _dumped(value: Any) -> Any:
    """litellm's result nests pydantic models in plain dicts."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    raise TypeError(f"litellm returned a {type(value).__name__}, which is not JSON")


refold_target = {
    "name": "litellm-anthropic", "dialect": "anthropic-messages", "fold": fold,
    "features": FEATURES,
    "description": f"litellm {sdk_version()}: completion path, ModelResponseIterator + "
                   f"stream_chunk_builder + translate_openai_response_to_anthropic "
                   f"(refold.targets.sdk.litellm_anthropic)",
}
"""The declaration `--target litellm-anthropic` loads."""
