"""The response's top-level keys: identity, usage, prompt feedback and every other key.

Each chunk is a whole `GenerateContentResponse` snapshot, so a top-level key takes the
last value a chunk sent and a chunk that omits it erases nothing (GM-ENV-SNAPSHOT). Usage
is a running total: the last object, whole (GM-USAGE-LAST). Candidates and `error` are
the accumulator's business.
"""

from __future__ import annotations

from .._json import JSON, JSONObject, copy_json, non_blank, object_or_none

__all__ = ["Envelope"]

_IDENTITY = ("modelVersion", "responseId")
_WHOLE_OBJECTS = ("usageMetadata", "promptFeedback")
_NOT_SNAPSHOTS = frozenset({"candidates", "error", *_IDENTITY, *_WHOLE_OBJECTS})


class Envelope:
    """Everything of the response but its candidates."""

    __slots__ = ("_keys",)

    def __init__(self) -> None:
        self._keys: JSONObject = {}

    def add(self, chunk: JSONObject) -> None:
        """Fold one chunk's top-level keys."""
        for key, value in chunk.items():
            if self._takes(key, value):
                self._keys[key] = value

    @staticmethod
    def _takes(key: str, value: JSON) -> bool:
        if key in _IDENTITY:
            return non_blank(value) is not None  # GM-ENV-ID: last non-blank
        if key in _WHOLE_OBJECTS:
            # GM-USAGE-LAST: replaced whole, so a count the last object omits is 0 (proto3);
            # GM-PROMPT-FEEDBACK: the last object, whole
            return object_or_none(value) is not None
        return key not in _NOT_SNAPSHOTS and value is not None  # GM-ENV-SNAPSHOT

    @property
    def blocked(self) -> bool:
        """True when promptFeedback names a blockReason (the prompt was refused)."""
        feedback = self._keys.get("promptFeedback")
        return feedback is not None and non_blank(feedback.get("blockReason")) is not None

    def output(self) -> JSONObject:
        """The top-level keys as a new object."""
        return copy_json(self._keys)  # type: ignore[no-any-return]
