"""Target `langchain-anthropic`: `ChatAnthropic.stream()`, its chunks summed as `AIMessageChunk`.

Dialect `anthropic-messages`. What runs is LangChain's own streaming call, `ChatAnthropic.stream()`
(`BaseChatModel.stream()` around `ChatAnthropic._stream`, which turns each SDK event into a chunk
with `_make_message_chunk_from_anthropic_event`), with only the HTTP request replaced: the events
are framed as SSE (`event: <type>`, `data: <json>`) and read by anthropic-python's own `Stream`
(its decoder, its `ping` filter, its `error` raise, its unvalidated event construction), which is
what `_stream` iterates. The chunks are added with `+` as `.stream()` users sum them. The request
declares a tool, as any tool-using call does, so LangChain keeps structured content (blocks, not a
string: `coerce_content_to_string` is false). The summed message is mapped to a Message:

    (nothing)                        -> id (the message's id is LangChain's run id, `lc_run--…`,
                                        never the Message's; message_start's id is not kept)
    (AIMessage)                      -> type "message", role "assistant"
    response_metadata.model_name     -> model
    content blocks, in list order    -> content, without LangChain's merge key `index`
      tool_use                       -> input: the parsed args of `tool_calls` with the block's id
                                        (what `_format_messages` sends back), else the block's own
      server_tool_use, mcp_tool_use  -> input: `partial_json` parsed when the block's input is {}
                                        (as `_format_messages` does); the raw `partial_json` key
                                        is LangChain's buffer and is not part of the block
    response_metadata.stop_reason, stop_sequence, stop_details, container -> the same keys
    usage_metadata                   -> usage, the inverse of `_create_usage_metadata`:
                                        input_tokens less the cache counts it added,
                                        cache_read / cache_creation / ephemeral details back to
                                        Anthropic's keys, reasoning to output_tokens_details

LangChain cannot represent message_start's id, its unknown keys, `container` from message_start,
or usage keys other than the token counts (`server_tool_use`, `service_tier`); those differences
are LangChain's and fail their rules (AM-START-BASE, AM-USAGE-*). Claims: every content feature
and `usage`; not `lifecycle` (a whole-list fold) nor `sse` (LangChain has no decoder of its own;
anthropic-python's, which it streams through, is that SDK's target's).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from refold.reference import JSON, JSONObject
from refold.reference.anthropic import FEATURES as _SPEC_FEATURES
from refold.targets.sdk._requires import quiet, require
from refold.targets.sdk.summing import Served, summed, versions

__all__ = ["FEATURES", "fold", "refold_target", "sdk_version"]

require("langchain_anthropic", extra="langchain-anthropic")
import anthropic  # noqa: E402
import httpx2  # noqa: E402
from anthropic.types import RawMessageStreamEvent  # noqa: E402
from langchain_anthropic import ChatAnthropic  # noqa: E402
from langchain_core.messages import AIMessageChunk, HumanMessage  # noqa: E402

from ._wire import event_stream_response, sse_frames  # noqa: E402

FEATURES = frozenset(_SPEC_FEATURES) - {"lifecycle", "sse"}
"""Everything a Message of the fold holds; not `lifecycle`, `sse` (see the module docstring)."""

_TOOLS = [
    {
        "name": "refold_tool",
        "description": "declared so content stays structured",
        "input_schema": {"type": "object", "properties": {}},
    }
]
_CACHE_DETAILS = ("ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens")
_TOOL_BLOCKS = ("tool_use", "server_tool_use", "mcp_tool_use")
"""Block types whose `partial_json` key is LangChain's buffer of the streamed input."""


_SERVED = Served()


class _Served:
    """What `ChatAnthropic._create` returns: a raw response whose `parse()` is the SDK stream."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def parse(self) -> Any:
        return self._stream


class _OfflineChatAnthropic(ChatAnthropic):
    """ChatAnthropic whose request is answered by the events of the fold, offline."""

    def _create(self, payload: dict[str, Any]) -> Any:
        request = httpx2.Request("POST", "http://127.0.0.1:9/v1/messages")
        response = event_stream_response(request, sse_frames(_SERVED.events))
        event_type: Any = RawMessageStreamEvent  # a union: the SDK's own `cast_to`
        return _Served(anthropic.Stream(cast_to=event_type, response=response, client=self._client))


_MODEL = _OfflineChatAnthropic(
    model="claude-refold-offline",  # type: ignore[call-arg]
    api_key="refold-offline-dummy",  # type: ignore[arg-type]
    base_url="http://127.0.0.1:9",
    max_retries=0,
)


def sdk_version() -> str:
    """The installed langchain-anthropic, langchain-core and anthropic versions."""
    return versions("langchain-anthropic", "langchain-core", "anthropic")


def fold(events: list[JSON]) -> JSONObject:
    """Fold `events` the way `ChatAnthropic.stream()` and `+` do, mapped to a Message."""
    with quiet(), _SERVED.serving(events):
        message = summed(_chunks())
    return _message(message)


def _chunks() -> Iterator[AIMessageChunk]:
    yield from _MODEL.stream([HumanMessage("refold")], tools=_TOOLS)


def _message(message: AIMessageChunk) -> JSONObject:
    metadata = message.response_metadata
    blocks = (
        message.content
        if isinstance(message.content, list)
        else [{"type": "text", "text": message.content}]
    )
    calls = {str(call["id"]): call["args"] for call in message.tool_calls if call.get("id")}
    result: JSONObject = {
        "type": "message",
        "role": "assistant",
        "model": metadata.get("model_name"),
        "content": [_block(block, calls) for block in blocks],
        "stop_reason": metadata.get("stop_reason"),
        "stop_sequence": metadata.get("stop_sequence"),
    }
    for key in ("stop_details", "container"):
        if key in metadata:
            result[key] = metadata[key]
    if message.usage_metadata is not None:
        result["usage"] = _usage(dict(message.usage_metadata))
    dumped: JSONObject = json.loads(json.dumps(result, default=str))
    return dumped


def _block(block: Any, calls: dict[str, Any]) -> JSON:
    if not isinstance(block, dict):
        return {"type": "text", "text": str(block)}
    kind = block.get("type")
    dropped = ("index", "partial_json") if kind in _TOOL_BLOCKS else ("index",)
    mapped = {k: v for k, v in block.items() if k not in dropped}
    if kind == "tool_use" and block.get("id") in calls:
        mapped["input"] = calls[block["id"]]
    elif (
        kind in ("server_tool_use", "mcp_tool_use")
        and block.get("input") == {}
        and "partial_json" in block
    ):
        with contextlib.suppress(json.JSONDecodeError):
            mapped["input"] = json.loads(block["partial_json"]) or {}
    return mapped


def _usage(metadata: dict[str, Any]) -> JSONObject:
    details = dict(metadata.get("input_token_details") or {})
    ephemeral = {key: details[key] for key in _CACHE_DETAILS if key in details}
    specific = sum(v for v in ephemeral.values() if isinstance(v, int))
    cache_read = details.get("cache_read")
    cache_creation = specific if specific > 0 else details.get("cache_creation")
    usage: JSONObject = {
        "input_tokens": metadata["input_tokens"] - (cache_read or 0) - (cache_creation or 0),
        "output_tokens": metadata["output_tokens"],
    }
    reasoning = (metadata.get("output_token_details") or {}).get("reasoning")
    # The rest are the keys LangChain's metadata has something for, in the Message's order.
    optional: JSONObject = {
        "cache_read_input_tokens": cache_read,
        "cache_creation_input_tokens": cache_creation,
        "cache_creation": ephemeral or None,
        "output_tokens_details": None if reasoning is None else {"thinking_tokens": reasoning},
    }
    usage.update({key: value for key, value in optional.items() if value is not None})
    return usage


refold_target = {
    "name": "langchain-anthropic",
    "dialect": "anthropic-messages",
    "fold": fold,
    "features": FEATURES,
    "description": f"{sdk_version()}: ChatAnthropic.stream() chunks summed "
    f"(refold.dialects.anthropic_messages.targets.langchain_anthropic)",
}
"""The declaration `--target langchain-anthropic` loads."""
