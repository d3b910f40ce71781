"""The chat-fold spec's canonical comparison of a target's response with the expected one.

Remove every key whose value is null, and every `tool_calls`, `reasoning_details` or
`annotations` key whose value is an empty list, recursively; then compare as JSON
values (`refold.reference`'s walk): object key order ignored, list order significant,
`1 == 1.0`, `true != 1`. Differences are reported at RFC 6901 JSON pointers, expected
value first.
"""

from __future__ import annotations

from .._compare import Difference, _walk, without_nulls
from .._json import JSON, json_equal

__all__ = ["canonical", "differences", "equivalent"]

_EMPTY_LIST_MEANS_ABSENT = frozenset({"tool_calls", "reasoning_details", "annotations"})


def canonical(value: JSON) -> JSON:
    """Return `value` with nulls and absent-equivalent empty lists removed, recursively."""
    return without_nulls(value, _EMPTY_LIST_MEANS_ABSENT)


def equivalent(expected: JSON, received: JSON) -> bool:
    """True when the two responses are equal under the canonical comparison."""
    return json_equal(canonical(expected), canonical(received))


def differences(expected: JSON, received: JSON) -> list[Difference]:
    """Every difference between two responses under the canonical comparison.

    Returns an empty list when they are equivalent. Differences come in document
    order of the expected value, then keys only the received value has.
    """
    found: list[Difference] = []
    _walk(canonical(expected), canonical(received), [], found)
    return found
