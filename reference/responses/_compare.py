"""The dialect's canonical comparison of a target's Response with the expected one.

Remove every key whose value is null, and every `annotations` or `logprobs` key whose
value is an empty list, recursively; remove the top-level `output_text` (an SDK
convenience, not on the wire); then compare as JSON values (key order ignored, list
order significant, `1 == 1.0`, `true != 1`). Differences are reported at RFC 6901 JSON
pointers, expected value first, as the chat dialect's are.
"""

from __future__ import annotations

from .._compare import Difference, differences_under
from .._json import JSON

__all__ = ["canonical", "differences"]

_EMPTY_LIST_MEANS_ABSENT = frozenset({"annotations", "logprobs"})


def canonical(value: JSON) -> JSON:
    """Return `value` with nulls, empty annotations/logprobs and `output_text` removed."""
    kept = _canonical(value)
    if isinstance(kept, dict):
        kept.pop("output_text", None)  # the top level's only: an item may hold any key
    return kept


def _canonical(value: JSON) -> JSON:
    if isinstance(value, dict):
        return {
            key: _canonical(item)
            for key, item in value.items()
            if item is not None and not (item == [] and key in _EMPTY_LIST_MEANS_ABSENT)
        }
    if isinstance(value, list):
        return [_canonical(item) for item in value]
    return value


def differences(expected: JSON, received: JSON) -> list[Difference]:
    """Every difference between two Responses under the canonical comparison, in document
    order (`refold.reference._compare.differences_under`)."""
    return differences_under(canonical, expected, received)
