"""Target `langchain-openai-responses`: `ChatOpenAI(use_responses_api=True).stream()`, its
chunks summed as `AIMessageChunk`, checked on a stated projection of a Response.

Dialect `openai-responses`. What runs is LangChain's own streaming call, `ChatOpenAI.stream()`
(`BaseChatModel.stream()` around `_stream_responses`, which turns each SDK event into a chunk
with `_convert_responses_chunk_to_generation_chunk`), with only the HTTP transport replaced:
the client is given an `httpx2.MockTransport` answering with the events as SSE frames, so
openai-python's `client.responses.create(stream=True)` (its decoder, its `error` raise, its
lenient event construction) is what `_stream_responses` iterates. The chunks are added with
`+` as `.stream()` users add them.

LangChain builds an `AIMessage`, not a Response. The projection, and only that, maps it to one:

    message.id                              -> id (response.created's id)
    response_metadata: object, created_at,  -> the same top-level keys (LangChain copies these
      status, model, incomplete_details,       of the terminal response, and only these, in
      service_tier, metadata, user             `_construct_lc_result_from_responses_api`)
    content blocks                          -> output: the items LangChain itself sends back for
                                               the message on the next turn
                                               (`_construct_responses_api_input`): `message`
                                               {id, role, content: output_text {text,
                                               annotations} / refusal}, `function_call` {id,
                                               call_id, name, arguments}, `reasoning` {id,
                                               summary, encrypted_content}, hosted-tool items
    usage_metadata                          -> usage, the inverse of
                                               `_create_usage_metadata_responses` (cache_read ->
                                               input_tokens_details.cached_tokens,
                                               cache_creation -> cache_write_tokens, reasoning ->
                                               output_tokens_details.reasoning_tokens; the
                                               priority_/flex_ prefixed keys likewise)

So the fields compared are exactly those above, declared as the target's `projection`
(`PROJECTION`, `refold.run.projection`): both folds are reduced to them before they are
compared. An item is selected by position, not by type, so every item is compared at every
item key above (a reasoning item's `content`, which LangChain keeps from the done item, too;
a hosted-tool item at the keys the hosted tools have, LangChain sending it back as it came).
Never produced, and so outside the projection: every other top-level key of the terminal
response (`tools`, `instructions`, `temperature`, `text`, `error`, unknown keys …), each
item's `status` (a message's is dropped), a message part's `logprobs`. The rules owning only
such places are not judged (`refold rules --dialect openai-responses --target
langchain-openai-responses` lists them): RS-RECOVER-STATUS (an item's `status`) and
RS-ERROR-EVENT (the Response's `error`; that LangChain raises on an `error` event is pinned
by tests/dialects/openai_responses/test_responses_sdk_targets_langchain_litellm.py, not
judged by the suites). Not judged either, because not claimed: `lifecycle` (a whole-list
fold: LIFE-RS-*) and `sse` (LangChain has no decoder of its own; openai-python's, which it
streams through, is that SDK's target's).
A stream whose chunks LangChain sums to nothing raises `ValueError` ("no message chunk").
"""

from __future__ import annotations

import json
from typing import Any

from refold.reference import JSON, JSONObject
from refold.targets.sdk._requires import quiet, require
from refold.targets.sdk.summing import Served, sent_back, summed, versions

__all__ = ["FEATURES", "PROJECTION", "fold", "refold_target", "sdk_version"]

require("langchain_openai", extra="langchain")
import httpx2  # noqa: E402
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage  # noqa: E402
from langchain_openai import ChatOpenAI  # noqa: E402
from langchain_openai.chat_models.base import _construct_responses_api_input  # noqa: E402

from ._wire import BASE_URL, event_stream_response, sse_frames  # noqa: E402

FEATURES = frozenset(
    {"text", "tool_calls", "refusal", "reasoning", "annotations", "usage", "robustness"}
)
"""What the projection carries; not `lifecycle`, `sse` (see the module docstring)."""

_METADATA_KEYS = (
    "object",
    "created_at",
    "status",
    "model",
    "incomplete_details",
    "service_tier",
    "metadata",
    "user",
)
"""The terminal response's keys `_construct_lc_result_from_responses_api` keeps (less `id`,
which is the message's)."""
_ITEM_KEYS = ("type", "id", "role", "call_id", "name", "arguments", "summary", "encrypted_content")
"""The keys of the items `_construct_responses_api_input` sends back (messages, function
calls, reasoning items), `content` aside."""
_PART_KEYS = ("type", "text", "annotations", "refusal")
_HOSTED_KEYS = (
    "action",
    "queries",
    "results",
    "code",
    "container_id",
    "outputs",
    "result",
    "server_label",
    "output",
    "error",
)
"""The keys of the hosted-tool items (web search, file search, code interpreter, image
generation, MCP) beyond type and id, which LangChain sends back as they came."""
_USAGE_KEYS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "input_tokens_details/cached_tokens",
    "input_tokens_details/cache_write_tokens",
    "output_tokens_details/reasoning_tokens",
)

PROJECTION: dict[str, Any] = {
    "pointers": [
        "/id",
        *(f"/{key}" for key in _METADATA_KEYS),
        *(f"/output/*/{key}" for key in (*_ITEM_KEYS, *_HOSTED_KEYS)),
        *(f"/output/*/content/*/{key}" for key in _PART_KEYS),
        *(f"/usage/{key}" for key in _USAGE_KEYS),
    ],
    "builds": "an AIMessage (content blocks, tool calls, response_metadata, usage_metadata),"
    " mapped back to Response items as LangChain sends them on the next turn",
}
"""The places of the Response this target is compared on (the module docstring)."""
_DETAILS = (
    (
        "input_token_details",
        "input_tokens_details",
        (("cache_read", "cached_tokens"), ("cache_creation", "cache_write_tokens")),
    ),
    ("output_token_details", "output_tokens_details", (("reasoning", "reasoning_tokens"),)),
)
_TIER_PREFIXES = ("", "priority_", "flex_")

_SERVED = Served()


def _answer(request: httpx2.Request) -> httpx2.Response:
    return event_stream_response(request, sse_frames(_SERVED.events))


_MODEL = ChatOpenAI(
    model="gpt-refold-offline",
    api_key="sk-refold-offline-dummy",  # type: ignore[arg-type]
    base_url=BASE_URL,
    max_retries=0,
    use_responses_api=True,
    http_client=httpx2.Client(transport=httpx2.MockTransport(_answer)),
)


def sdk_version() -> str:
    """The installed langchain-openai, langchain-core and openai versions."""
    return versions("langchain-openai", "langchain-core", "openai")


def fold(events: list[JSON]) -> JSONObject:
    """Fold `events` the way `ChatOpenAI.stream()` and `+` do, projected onto a Response."""
    with quiet(), _SERVED.serving(events):
        return _response(summed(_MODEL.stream([HumanMessage("refold")]), of=AIMessageChunk))


def _response(total: AIMessageChunk) -> JSONObject:
    metadata = total.response_metadata
    result: JSONObject = {"id": total.id}
    result.update({key: metadata[key] for key in _METADATA_KEYS if key in metadata})
    result["output"] = _construct_responses_api_input([sent_back(total, AIMessage)])
    if total.usage_metadata is not None:
        result["usage"] = _usage(dict(total.usage_metadata))
    dumped: JSONObject = json.loads(json.dumps(result, default=str))
    return dumped


def _usage(metadata: dict[str, Any]) -> JSONObject:
    usage: JSONObject = {
        key: metadata.get(key) for key in ("input_tokens", "output_tokens", "total_tokens")
    }
    for lc_key, openai_key, fields in _DETAILS:
        details = metadata.get(lc_key) or {}
        mapped = {
            theirs: details[prefix + ours]
            for ours, theirs in fields
            for prefix in _TIER_PREFIXES
            if prefix + ours in details
        }
        if mapped:
            usage[openai_key] = mapped
    return usage


refold_target = {
    "name": "langchain-openai-responses",
    "dialect": "openai-responses",
    "fold": fold,
    "features": FEATURES,
    "projection": PROJECTION,
    "description": f"{sdk_version()}: ChatOpenAI(use_responses_api=True).stream() "
    f"chunks summed, projected onto a Response "
    f"(refold.dialects.openai_responses.targets.langchain_openai_responses)",
}
"""The declaration `--target langchain-openai-responses` loads."""
