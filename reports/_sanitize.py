"""What may be persisted: everything a report writes passes through `scrub` first.

Streams can carry credentials (a proxy echoing an Authorization header, a key pasted
into a prompt) and `opaque` provider frames, which runtimes must strip before anything
is persisted (seed 000). Keys are matched by name and values by the shapes of common
secrets; counters such as `prompt_tokens` and logprob `token`s are not credentials.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["REDACTED", "scrub", "scrub_text"]

REDACTED = "[redacted]"

_DROPPED_KEYS = frozenset({"opaque"})
_SECRET_KEYS = re.compile(
    r"^(x-)?(api[-_]?key|apikey|authorization|proxy-authorization|access[-_]token|"
    r"refresh[-_]token|id[-_]token|secret|client[-_]secret|password|passwd|cookie|set-cookie|"
    r"session[-_]token|bearer)$",
    re.IGNORECASE,
)
_SECRET_VALUES = re.compile(
    r"(?i:bearer)\s+[A-Za-z0-9._~+/=-]{8,}"
    r"|\bsk-(?:proj-|ant-|or-v1-)?[A-Za-z0-9_-]{16,}"
    r"|\bAKIA[0-9A-Z]{16}\b"
    r"|\bgh[pousr]_[A-Za-z0-9]{30,}"
    r"|\bxox[abpr]-[A-Za-z0-9-]{10,}"
    r"|\bAIza[0-9A-Za-z_-]{35}"
)


def scrub(value: Any) -> Any:
    """A copy of a JSON value without `opaque` members and with credentials redacted."""
    if isinstance(value, dict):
        return {str(k): (REDACTED if _SECRET_KEYS.match(str(k)) and v not in (None, "")
                         else scrub(v))
                for k, v in value.items() if k not in _DROPPED_KEYS}
    if isinstance(value, list | tuple):
        return [scrub(item) for item in value]
    if isinstance(value, str):
        return scrub_text(value)
    return value


def scrub_text(text: str) -> str:
    """`text` with anything shaped like a credential replaced by a marker."""
    return _SECRET_VALUES.sub(REDACTED, text)
