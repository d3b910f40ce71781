"""The built-in targets of real SDKs for provider-neutral events (`--target NAME`).

Each adapter feeds the stream to the SDK's own accumulation, built with the SDK's own types,
and maps the SDK's result to the spec's shape without repairing anything: an SDK defect
shows as a failure of the rule it breaks. Here: LangChain's `AIMessageChunk` stream
(`refold[langchain]`, `refold[langchain-anthropic]`) and pydantic-ai's streamed-response
events (`refold[pydantic-ai]`: its OpenAI and Anthropic models), as events adapters;
its Google model, for Gemini streams, is among the Gemini dialect's targets. Importing an
adapter without its SDK raises a `UsageError` that names the extra to install.
"""

from pathlib import Path

from ..._dialect import NodeTarget

SDK_TARGETS: dict[str, str] = {
    "langchain-events": "refold.dialects.provider_events.targets.langchain:refold_target",
    "pydantic-ai-events": "refold.dialects.provider_events.targets.pydantic_ai:refold_target",
}
"""Built-in target names and the Python object each stands for."""

_NODE = Path(__file__).resolve().parent / "node"
"""The JavaScript files of the Node.js targets (their npm packages: `refold.targets.sdk.nodejs`)."""

NODE_TARGETS: dict[str, NodeTarget] = {
    "ai-sdk-events": NodeTarget(
        _NODE / "events_ai_sdk.js", ("@ai-sdk/openai", "@ai-sdk/anthropic")
    ),
}
"""Built-in Node.js events adapters (refold-events/1): the AI SDK's stream parts."""
