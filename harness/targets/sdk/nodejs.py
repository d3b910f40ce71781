"""How the built-in Node.js targets run: each dialect registers its own
(`Dialect.node_targets`, a `NodeTarget` each), and this module runs them.

Each is a JavaScript file in its dialect's package (`targets/node/`) that drives a
JavaScript SDK the way its users do and serves it over the `exec:` protocol
(docs/protocol.md) with the helpers of `node/` here. The SDKs of every dialect's targets
are npm packages pinned by `node/package-lock.json` and installed once in `node/` by the
project's install step (`npm ci --prefix <that folder>`), never at test time; a target
requires them from there (`node/pinned.js`). Without `node` or the packages the target is
a usage error naming the command that installs them.

A target of a dialect of events adapters (`Dialect.adapters`) speaks events.md §5's
refold-events/1 protocol instead of the exec: fold protocol: the same `exec:node <file>`
command, another client.
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from refold.errors import UsageError

from ...dialects import DIALECTS, NodeTarget

__all__ = [
    "NODE_DIR",
    "NODE_TARGETS",
    "NodeTarget",
    "install_command",
    "node_command",
    "require_node",
]

NODE_DIR = Path(__file__).resolve().parent / "node"
"""Where the helpers every JavaScript target shares, the package.json and package-lock.json
of their npm packages (and, once installed, their node_modules) are."""


NODE_TARGETS: Mapping[str, NodeTarget] = MappingProxyType(
    {name: one for d in DIALECTS.values() for name, one in d.node_targets.items()}
)
"""Every registered dialect's Node.js targets by name (`Dialect.node_targets`)."""


def _target(name: str) -> NodeTarget:
    return NODE_TARGETS[name]


def install_command() -> str:
    """The command that installs the pinned packages next to the targets."""
    return f"npm ci --prefix {shlex.quote(str(NODE_DIR))}"


def node_command(name: str) -> str:
    """The `exec:` command of target `name`: `node <its file>`."""
    return f"node {shlex.quote(str(_target(name).file))}"


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
