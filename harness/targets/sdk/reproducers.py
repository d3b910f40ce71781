"""The reproducer templates of the built-in SDK targets (`refold report --upstream`).

A template is a short program in the SDK's language that feeds a stream to the SDK's own
accumulation the way the target does and prints what it folded; `{stream}` marks where a
report puts the stream: a list literal holding one JSON text (an ASCII string literal)
per item, which reads the same in Python and JavaScript. A Python target's template is its
module's `REPRODUCER`; a Node.js target's is its `NodeTarget.reproducer`.
"""

from __future__ import annotations

from ...errors import UsageError
from ..loading import BUILTIN_TARGETS, resolved
from .nodejs import NODE_TARGETS

__all__ = ["reproducer_of"]


def reproducer_of(name: str) -> str | None:
    """The template of built-in target `name`; None for a user target or one without."""
    node = NODE_TARGETS.get(name)
    if node is not None:
        return node.reproducer
    declared = BUILTIN_TARGETS.get(name)
    if declared is None or declared.startswith("exec:"):
        # a user target, or a program run over the exec: protocol with no template
        return None
    try:
        template = resolved(f"{declared.partition(':')[0]}:REPRODUCER")
    except UsageError:  # its SDK is not installed: no template to give
        return None
    except AttributeError:  # a target without a template
        return None
    return template if isinstance(template, str) else None
