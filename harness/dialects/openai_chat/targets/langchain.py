"""Target `langchain`: langchain-openai's chunk conversion, summed as `AIMessageChunk`.

Each chunk goes the way `ChatOpenAI.stream()` sends it: built as openai-python's
`ChatCompletionChunk` and `model_dump()`ed, converted by `_convert_chunk_to_generation_chunk`,
its generation info merged into `response_metadata` as `BaseChatModel.stream()` does, then
the messages are added with `+`. The summed message is mapped back to a `chat.completion`:

    message.id                       -> id (LangChain keeps no `created`)
    response_metadata.model_name     -> model, and system_fingerprint, service_tier
    content                          -> choices[0].message.content ("" -> null: a LangChain
                                        message cannot hold null content)
    tool_call_chunks                 -> tool_calls, raw `args` as `arguments`, in list order
    response_metadata.finish_reason  -> finish_reason
    usage_metadata                   -> usage (input/output/total tokens and their details)

LangChain reads choice 0 only, so the target does not claim `choices`; it drops refusal,
reasoning, reasoning details and annotations, so it does not claim those either. Nor `sse`:
langchain-openai exposes no byte-level decoder of its own (it streams through
openai-python's client), so the target declares none.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject
from refold.targets.sdk._requires import quiet, require
from refold.targets.sdk.summing import summed, versions

__all__ = ["FEATURES", "REPRODUCER", "fold", "refold_target", "sdk_version"]

require("langchain_openai", extra="langchain")
from langchain_core.messages import AIMessageChunk  # noqa: E402
from langchain_openai import ChatOpenAI  # noqa: E402
from openai._models import construct_type  # noqa: E402
from openai.types.chat import ChatCompletionChunk  # noqa: E402

FEATURES = frozenset(
    {"text", "tool_calls", "tool_call_repair", "usage", "provider_fields", "robustness"}
)
"""Choice 0's text, tool calls and usage. Not `empty_arguments`: the raw `args` are kept as
streamed and only LangChain's lenient parse (into `tool_calls[].args`) reads `""` as `{}`."""

_MODEL = ChatOpenAI(
    model="refold-offline",
    api_key="sk-refold-offline-dummy",  # type: ignore[arg-type]
    base_url="http://127.0.0.1:9/v1",
    max_retries=0,
)
_USAGE_DETAILS = (
    (
        "input_token_details",
        "prompt_tokens_details",
        (
            ("cache_read", "cached_tokens"),
            ("audio", "audio_tokens"),
            ("cache_creation", "cache_write_tokens"),
        ),
    ),
    (
        "output_token_details",
        "completion_tokens_details",
        (("reasoning", "reasoning_tokens"), ("audio", "audio_tokens")),
    ),
)


def sdk_version() -> str:
    """The installed langchain-openai and langchain-core versions."""
    return versions("langchain-openai", "langchain-core")


def fold(chunks: list[JSON]) -> JSONObject:
    """Fold `chunks` the way `ChatOpenAI.stream()` and `+` do, mapped to the spec's shape."""
    with quiet():
        messages = (_message_of(chunk) for chunk in chunks)
        message = summed(message for message in messages if message is not None)
    return _completion(message)


def _message_of(chunk: JSON) -> AIMessageChunk | None:
    dumped = construct_type(type_=ChatCompletionChunk, value=chunk).model_dump()  # type: ignore[attr-defined]
    # ChatOpenAI passes its base generation info (response headers) with the first chunk
    # only; offline there are no headers, so it is empty for every chunk.
    generation = _MODEL._convert_chunk_to_generation_chunk(dumped, AIMessageChunk, {})
    if generation is None:
        return None
    message: AIMessageChunk = generation.message  # type: ignore[assignment]
    message.response_metadata = {**(generation.generation_info or {}), **message.response_metadata}
    return message


def _completion(message: AIMessageChunk) -> JSONObject:
    metadata = message.response_metadata
    content = message.content if isinstance(message.content, str) else str(message.content)
    calls = [
        {
            "id": c.get("id"),
            "type": "function",
            "function": {"name": c.get("name"), "arguments": c.get("args") or ""},
        }
        for c in message.tool_call_chunks
    ]
    choice = {
        "index": 0,
        "message": {"role": "assistant", "content": content or None, "tool_calls": calls},
        "finish_reason": metadata.get("finish_reason"),
        "logprobs": None,
    }
    completion: JSONObject = {
        "id": message.id,
        "object": "chat.completion",
        "model": metadata.get("model_name"),
        "system_fingerprint": metadata.get("system_fingerprint"),
        "service_tier": metadata.get("service_tier"),
        "choices": [choice],
    }
    if message.usage_metadata is not None:
        completion["usage"] = _usage(dict(message.usage_metadata))
    return completion


def _usage(metadata: dict[str, Any]) -> JSONObject:
    usage: JSONObject = {
        "prompt_tokens": metadata.get("input_tokens"),
        "completion_tokens": metadata.get("output_tokens"),
        "total_tokens": metadata.get("total_tokens"),
    }
    for lc_key, openai_key, fields in _USAGE_DETAILS:
        details = metadata.get(lc_key) or {}
        mapped = {theirs: details[ours] for ours, theirs in fields if ours in details}
        if mapped:
            usage[openai_key] = mapped
    return usage


refold_target = {
    "name": "langchain",
    "fold": fold,
    "features": FEATURES,
    "description": (
        f"{sdk_version()}: AIMessageChunk sum (refold.dialects.openai_chat.targets.langchain)"
    ),
}
"""The declaration `--target langchain` loads."""

REPRODUCER = '''"""Feeds a stream of chunks to langchain-openai as `ChatOpenAI.stream()`
does (each chunk converted by `_convert_chunk_to_generation_chunk`) and sums the message
chunks with `+`, as its users do; prints the summed AIMessageChunk."""
import json

from langchain_core.messages import AIMessageChunk
from langchain_openai import ChatOpenAI
from openai._models import construct_type
from openai.types.chat import ChatCompletionChunk

CHUNKS = [json.loads(item) for item in {stream}]

model = ChatOpenAI(model="offline", api_key="offline", base_url="http://sdk.invalid/v1")
summed = None
for chunk in CHUNKS:
    dumped = construct_type(type_=ChatCompletionChunk, value=chunk).model_dump()
    generation = model._convert_chunk_to_generation_chunk(dumped, AIMessageChunk, {})
    if generation is None:
        continue
    message = generation.message
    message.response_metadata = {**(generation.generation_info or {}),
                                 **message.response_metadata}
    summed = message if summed is None else summed + message
print(json.dumps(summed.model_dump(), indent=2, default=str))
'''
"""The program an upstream report gives the SDK's maintainers (`{stream}`: the stream, a
list literal of one JSON text per chunk, `refold.targets.sdk.reproducers`): the fold `fold`
runs, without refold and without its mapping to a `chat.completion`."""
