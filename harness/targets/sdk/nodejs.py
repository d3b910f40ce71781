"""The built-in Node.js targets (`--target anthropic-ts`, `--target ai-sdk-anthropic`; of the
Responses dialect `--target openai-node-responses`; of the Gemini dialect `--target
google-genai-node`, `--target ai-sdk-google`) and events targets (`ai-sdk-events`).

Each is a JavaScript file of `node/` that drives a JavaScript SDK the way its users do and
serves it over the `exec:` protocol (docs/protocol.md). The SDKs are npm packages pinned
by `node/package-lock.json` and installed next to the files by the project's install step
(`npm ci --prefix <that folder>`), never at test time; without `node` or the packages the
target is a usage error naming the command that installs them.

An events target (`NODE_EVENTS_TARGETS`) speaks events.md §5's refold-events/1 protocol
instead of the exec: fold protocol: the same `exec:node <file>` command, another client.
"""

from __future__ import annotations

import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

from refold.errors import UsageError

__all__ = [
    "NODE_DIR",
    "NODE_EVENTS_TARGETS",
    "NODE_REPRODUCERS",
    "NODE_TARGETS",
    "NodeTarget",
    "install_command",
    "node_command",
]

NODE_DIR = Path(__file__).resolve().parent / "node"
"""Where the JavaScript targets, their package.json and package-lock.json (and, once
installed, their node_modules) are."""


@dataclass(frozen=True)
class NodeTarget:
    """One built-in Node.js target: its file and the npm packages it needs."""

    file: str
    packages: tuple[str, ...]


NODE_TARGETS: dict[str, NodeTarget] = {
    "anthropic-ts": NodeTarget("anthropic-ts.js", ("@anthropic-ai/sdk",)),
    "ai-sdk-anthropic": NodeTarget(
        "ai-sdk-anthropic.js", ("@ai-sdk/anthropic", "@ai-sdk/provider-utils")
    ),
    "openai-node-responses": NodeTarget("openai-node-responses.js", ("openai",)),
    "google-genai-node": NodeTarget("google-genai-node.js", ("@google/genai",)),
    "ai-sdk-google": NodeTarget("ai-sdk-google.js", ("@ai-sdk/google", "@ai-sdk/provider-utils")),
}
"""The built-in Node.js targets by name."""

NODE_EVENTS_TARGETS: dict[str, NodeTarget] = {
    "ai-sdk-events": NodeTarget("events_ai_sdk.js", ("@ai-sdk/openai", "@ai-sdk/anthropic")),
}
"""The built-in Node.js events targets (refold-events/1) by name."""


def _target(name: str) -> NodeTarget:
    return NODE_TARGETS[name] if name in NODE_TARGETS else NODE_EVENTS_TARGETS[name]


def install_command() -> str:
    """The command that installs the pinned packages next to the targets."""
    return f"npm ci --prefix {shlex.quote(str(NODE_DIR))}"


def node_command(name: str) -> str:
    """The `exec:` command of target `name`: `node <its file>`."""
    return f"node {shlex.quote(str(NODE_DIR / _target(name).file))}"


def require_node(name: str) -> None:
    """Raise a UsageError, naming the command that fixes it, when `node` or the npm
    packages of target `name` are missing."""
    target = _target(name)
    if shutil.which("node") is None:
        raise UsageError(
            f"target {name} runs its SDK on Node.js, but `node` is not on PATH; install "
            f"Node.js 20 or later (e.g. apt-get install nodejs), then its npm packages with: "
            f"{install_command()}"
        )
    missing = [
        p for p in target.packages if not (NODE_DIR / "node_modules" / p / "package.json").is_file()
    ]
    if missing:
        raise UsageError(
            f"target {name} needs the npm package(s) {', '.join(missing)}, which are not "
            f"installed in {NODE_DIR / 'node_modules'}; install the pinned versions "
            f"(package-lock.json) with: {install_command()}"
        )


_ANTHROPIC_TS_REPRODUCER = r"""// Serves a stream of events as server-sent events to
// @anthropic-ai/sdk's client.messages.stream(), in memory, and prints finalMessage().
const Anthropic = require("@anthropic-ai/sdk").default;

const events = {stream}.map((item) => JSON.parse(item));
const body = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
const fetch = async () => new Response(body.join(""), {
  status: 200, headers: { "content-type": "text/event-stream" } });
const client = new Anthropic({ apiKey: "offline", baseURL: "http://sdk.invalid", fetch,
                               maxRetries: 0 });
client.messages.stream({ model: "claude-sonnet-4-5", max_tokens: 1024,
                         messages: [{ role: "user", content: "Hello" }] })
  .finalMessage()
  .then((message) => console.log(JSON.stringify(message, null, 2)),
        (error) => { console.error(error); process.exitCode = 1; });
"""

_OPENAI_NODE_RESPONSES_REPRODUCER = r"""// Serves a stream of events as server-sent events to
// openai-node's client.responses.stream(), in memory, and prints finalResponse().
const OpenAI = require("openai").default;

const events = {stream}.map((item) => JSON.parse(item));
const body = events.map((event) => `data: ${JSON.stringify(event)}\n\n`);
const fetch = async () => new Response(body.join(""), {
  status: 200, headers: { "content-type": "text/event-stream" } });
const client = new OpenAI({ apiKey: "offline", baseURL: "http://sdk.invalid/v1", fetch,
                            maxRetries: 0 });
client.responses.stream({ model: "gpt-offline", input: "hi" })
  .finalResponse()
  .then((response) => console.log(JSON.stringify(response, null, 2)),
        (error) => { console.error(error); process.exitCode = 1; });
"""

NODE_REPRODUCERS: dict[str, str] = {
    "anthropic-ts": _ANTHROPIC_TS_REPRODUCER,
    "openai-node-responses": _OPENAI_NODE_RESPONSES_REPRODUCER,
}
"""The reproducer templates of the Node.js targets that have one, by name
(`refold.targets.sdk.reproducers`): `{stream}` is a list literal of JSON texts."""
