"""Target `litellm`: `litellm.stream_chunk_builder`, the fold litellm applies to a stream.

Each chunk is built as litellm's `ModelResponseStream` (its own chunk type, with the
normalisation its constructor applies) and the list is handed to `stream_chunk_builder`;
its `ModelResponse` is dumped as JSON. litellm would fetch a model price map over the network
when imported: the adapter asks for the copy bundled with the package instead, so the
target runs offline.

No `sse`: litellm exposes no byte-level event-stream decoder of its own to hand the `sse`
suite. Its OpenAI and OpenAI-compatible providers stream through openai-python's client
(whose decoder the `openai` target carries); other providers split lines
(`litellm.llms.custom_httpx.sse_lines`) and read `data:` lines in per-provider handlers,
with no one entry point from bytes to events. So the target declares no decoder and does
not claim the feature.
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any

from refold.reference import JSON, JSONObject
from refold.targets.sdk._requires import quiet, require

__all__ = ["FEATURES", "REPRODUCER", "fold", "refold_target", "sdk_version"]

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
_litellm = require("litellm", extra="litellm")
from litellm.types.utils import ModelResponseStream  # noqa: E402

FEATURES = frozenset(
    {
        "text",
        "choices",
        "tool_calls",
        "tool_call_repair",
        "empty_arguments",
        "refusal",
        "annotations",
        "logprobs",
        "usage",
        "provider_fields",
        "robustness",
    }
)
"""What a `ModelResponse` can represent. Not `reasoning`: litellm's message type renames
`reasoning` to `reasoning_content` on input, so the two fields of TEXT-REASONING cannot be
told apart; not `reasoning_details`, which it has no field for."""


def sdk_version() -> str:
    """The installed litellm version."""
    from importlib.metadata import version

    return version("litellm")


def fold(chunks: list[JSON]) -> JSONObject:
    """Fold `chunks` with `litellm.stream_chunk_builder`."""
    with quiet():
        # A fresh copy per chunk, as litellm's HTTP layer hands its constructor freshly
        # decoded JSON: the constructor rewrites the nested dicts it is given in place.
        built = [ModelResponseStream(**copy.deepcopy(chunk)) for chunk in chunks]
        response: Any = _litellm.stream_chunk_builder(built)
    if response is None:
        raise ValueError("litellm.stream_chunk_builder returned None (no response)")
    # Round-trip through JSON: litellm objects nest pydantic models in plain dicts.
    dumped: JSONObject = json.loads(response.model_dump_json())
    return dumped


refold_target = {
    "name": "litellm",
    "fold": fold,
    "features": FEATURES,
    "description": (
        f"litellm {sdk_version()}: stream_chunk_builder "
        "(refold.dialects.openai_chat.targets.litellm)"
    ),
}
"""The declaration `--target litellm` loads."""

REPRODUCER = '''"""Feeds a stream of chunks to litellm's stream_chunk_builder (how litellm
rebuilds a streamed response) and prints the response it builds."""
import json
import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import litellm  # noqa: E402
from litellm.types.utils import ModelResponseStream  # noqa: E402

litellm.suppress_debug_info = True  # its provider-list banner goes to stdout
CHUNKS = [json.loads(item) for item in {stream}]

response = litellm.stream_chunk_builder([ModelResponseStream(**chunk) for chunk in CHUNKS])
print(json.dumps(json.loads(response.model_dump_json()), indent=2))
'''
"""The program an upstream report gives the SDK's maintainers (`{stream}`: the stream, a
list literal of one JSON text per chunk, `refold.targets.sdk.reproducers`): the fold `fold`
runs, without refold."""
