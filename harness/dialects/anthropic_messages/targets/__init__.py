"""The built-in targets of real SDKs for Anthropic Messages (`--target NAME`).

Each adapter feeds the stream to the SDK's own accumulation, built with the SDK's own types,
and maps the SDK's result to the spec's shape without repairing anything: an SDK defect
shows as a failure of the rule it breaks. Here: the Anthropic SDK's accumulation, whole and
per event (`refold[anthropic]`), langchain-anthropic's (`refold[langchain-anthropic]`) and
litellm's Anthropic route (`refold[litellm]`); `_wire` serves them the events offline.
Importing an adapter without its SDK raises a `UsageError` that names the extra to install.
"""

from pathlib import Path

from ..._dialect import NodeTarget
from ._node_reproducer import REPRODUCER

SDK_TARGETS: dict[str, str] = {
    "anthropic": "refold.dialects.anthropic_messages.targets.anthropic:refold_target",
    "anthropic-stream": "refold.dialects.anthropic_messages.targets.anthropic_stream:refold_target",
    "langchain-anthropic": (
        "refold.dialects.anthropic_messages.targets.langchain_anthropic:refold_target"
    ),
    "litellm-anthropic": (
        "refold.dialects.anthropic_messages.targets.litellm_anthropic:refold_target"
    ),
}
"""Built-in target names and the Python object each stands for."""

_NODE = Path(__file__).resolve().parent / "node"
"""The JavaScript files of the Node.js targets (their npm packages: `refold.targets.sdk.nodejs`)."""

NODE_TARGETS: dict[str, NodeTarget] = {
    "anthropic-ts": NodeTarget(_NODE / "anthropic-ts.js", ("@anthropic-ai/sdk",), REPRODUCER),
    "ai-sdk-anthropic": NodeTarget(
        _NODE / "ai-sdk-anthropic.js", ("@ai-sdk/anthropic", "@ai-sdk/provider-utils")
    ),
}
"""Built-in Node.js target names: @anthropic-ai/sdk's `messages.stream()` and Vercel's
@ai-sdk/anthropic."""
