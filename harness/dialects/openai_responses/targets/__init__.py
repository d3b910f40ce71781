"""The built-in targets of real SDKs for OpenAI Responses (`--target NAME`).

Each adapter feeds the stream to the SDK's own accumulation, built with the SDK's own types,
and maps the SDK's result to the spec's shape without repairing anything: an SDK defect
shows as a failure of the rule it breaks. Here: openai-python's `responses.stream()`
(`refold[openai]`), langchain-openai's Responses path (`refold[langchain]`) and litellm's
Responses transformation (`refold[litellm]`), the last checked on the stated projection its
module documents; `_wire` serves them the events offline. Importing an adapter without its
SDK raises a `UsageError` that names the extra to install.
"""

from pathlib import Path

from ..._dialect import NodeTarget
from ._node_reproducer import REPRODUCER

SDK_TARGETS: dict[str, str] = {
    "openai-responses": "refold.dialects.openai_responses.targets.openai_responses:refold_target",
    "langchain-openai-responses": (
        "refold.dialects.openai_responses.targets.langchain_openai_responses:refold_target"
    ),
    "litellm-responses": "refold.dialects.openai_responses.targets.litellm_responses:refold_target",
}
"""Built-in target names and the Python object each stands for."""

_NODE = Path(__file__).resolve().parent / "node"
"""The JavaScript files of the Node.js targets (their npm packages: `refold.targets.sdk.nodejs`)."""

NODE_TARGETS: dict[str, NodeTarget] = {
    "openai-node-responses": NodeTarget(
        _NODE / "openai-node-responses.js", ("openai",), REPRODUCER
    ),
}
"""Built-in Node.js target names: openai-node's `responses.stream()`."""
