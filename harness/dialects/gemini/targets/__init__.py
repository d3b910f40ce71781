"""The built-in targets of real SDKs for Gemini `streamGenerateContent` (`--target NAME`).

Each adapter feeds the stream to the SDK's own accumulation, built with the SDK's own types,
and maps the SDK's result to the spec's `GenerateContentResponse` without repairing anything:
an SDK defect shows as a failure of the rule it breaks. Here: google-genai's chat session,
whose history is the only place that SDK keeps a streamed answer (`refold[gemini]`),
langchain-google-genai's chunks summed with `+` (`refold[langchain-google-genai]`) and
litellm's Gemini provider folded by `stream_chunk_builder` (`refold[litellm]`). None of them
builds a whole response, so each is checked on the stated projection its module documents.
pydantic-ai's `GoogleModel` (`refold[pydantic-ai]`) is here as an events adapter of Gemini
streams: a provider-events target, whose source dialect this is.
`_wire` serves them the chunks offline. Importing an adapter without its SDK raises a
`UsageError` that names the extra to install.
"""

from pathlib import Path

from ..._dialect import NodeTarget

SDK_TARGETS: dict[str, str] = {
    "google-genai": "refold.dialects.gemini.targets.google_genai:refold_target",
    "langchain-google-genai": "refold.dialects.gemini.targets.langchain_google_genai:refold_target",
    "litellm-gemini": "refold.dialects.gemini.targets.litellm_gemini:refold_target",
    # an events adapter (dialect provider-events) whose source is Gemini
    "pydantic-ai-gemini-events": (
        "refold.dialects.gemini.targets.pydantic_ai_events:refold_target"
    ),
}
"""Built-in target names and the Python object each stands for."""

_NODE = Path(__file__).resolve().parent / "node"
"""The JavaScript files of the Node.js targets (their npm packages: `refold.targets.sdk.nodejs`)."""

NODE_TARGETS: dict[str, NodeTarget] = {
    "google-genai-node": NodeTarget(_NODE / "google-genai-node.js", ("@google/genai",)),
    "ai-sdk-google": NodeTarget(
        _NODE / "ai-sdk-google.js", ("@ai-sdk/google", "@ai-sdk/provider-utils")
    ),
}
"""Built-in Node.js target names: @google/genai's chat history and Vercel's @ai-sdk/google."""
