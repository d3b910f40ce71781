"""The built-in targets of real SDKs for OpenAI Chat Completions (`--target NAME`).

Each adapter feeds the stream to the SDK's own accumulation, built with the SDK's own types,
and maps the SDK's result to the spec's shape without repairing anything: an SDK defect
shows as a failure of the rule it breaks. Here: openai-python's `ChatCompletionStreamState`
(`refold[openai]`), litellm's `stream_chunk_builder` (`refold[litellm]`) and langchain-
openai's chunk merging (`refold[langchain]`); `decoders` holds openai-python's and httpx-
sse's SSE decoders for feature `sse`. Importing an adapter without its SDK raises a
`UsageError` that names the extra to install.
"""

SDK_TARGETS: dict[str, str] = {
    "openai": "refold.dialects.openai_chat.targets.openai:refold_target",
    "litellm": "refold.dialects.openai_chat.targets.litellm:refold_target",
    "langchain": "refold.dialects.openai_chat.targets.langchain:refold_target",
}
"""Built-in target names and the Python object each stands for."""
