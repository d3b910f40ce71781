"""Single chunks for driving an incremental fold step by step (feature `lifecycle`).

Each drawn chunk is one the lifecycle rules decide about: a finish chunk
(GM-LIFE-FINISHED), a chunk without a finish (GM-LIFE-TRUNCATED), an error chunk
(GM-LIFE-ERROR), a usage-only chunk (GM-LIFE-AFTER-FINISH), a blocked prompt, and, under
`robustness`, a value that is not an object (GM-ROB-NOT-OBJECT).
"""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from refold.reference import JSON

from .._text import texts
from ._claims import FEATURES, allows, check_features
from ._responses import BLOCK_REASONS, FINISH_REASONS, usages

__all__ = ["lifecycle_chunks"]


def _content_chunks(*, finished: bool) -> st.SearchStrategy[JSON]:
    def build(text: str, index: int, reason: str) -> JSON:
        entry: dict[str, JSON] = {"content": {"role": "model", "parts": [{"text": text}]}}
        if index:
            entry["index"] = index
        if finished:
            entry["finishReason"] = reason
        return {"candidates": [entry], "modelVersion": "gemini-2.5-flash"}

    return st.builds(build, texts(max_size=4), st.integers(0, 1), st.sampled_from(FINISH_REASONS))


_ERRORS: st.SearchStrategy[JSON] = st.sampled_from(
    [
        {"error": {"code": 500, "message": "Internal error", "status": "INTERNAL"}},
        {"error": "overloaded"},
        {"error": {}},
    ]
)
_NOT_OBJECTS: st.SearchStrategy[JSON] = st.sampled_from([None, [], [{}], "data", 1, True])


def lifecycle_chunks(*, features: Collection[str] = frozenset(FEATURES)) -> st.SearchStrategy[JSON]:
    """Draw one chunk of a kind the lifecycle rules decide about, only of claimed
    features: a content chunk with or without a finish, an error chunk, a usage-only
    chunk (`usage`), a blocked prompt (`safety`), a value that is not an object
    (`robustness`). It shrinks toward a finish chunk with short text."""
    check_features(features)
    kinds = [_content_chunks(finished=True), _content_chunks(finished=False), _ERRORS]
    if allows("usage", features):
        kinds.append(usages().map(lambda usage: {"usageMetadata": usage}))
    if allows("prompt feedback", features):
        kinds.append(
            st.sampled_from(BLOCK_REASONS).map(
                lambda reason: {"promptFeedback": {"blockReason": reason}}
            )
        )
    if allows("not objects", features):
        kinds.append(_NOT_OBJECTS)
    return st.one_of(kinds)
