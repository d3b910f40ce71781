"""Lifecycle chunks drive an incremental fold step by step: a chunk that is not an
object is refused and changes nothing (GM-ROB-NOT-OBJECT), an error chunk is terminal and
never finished (GM-LIFE-ERROR), a finish chunk for every candidate finishes the fold
(GM-LIFE-FINISHED)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refold.reference.gemini import Accumulator, GeminiChunkTypeError, NoResponseError
from refold.strategies.gemini import lifecycle_chunks

_SLOW = settings(deadline=None)


def _read(accumulator: Accumulator) -> Any:
    try:
        return accumulator.response()
    except NoResponseError:
        return None


@given(st.lists(lifecycle_chunks(), max_size=6))
@_SLOW
def test_lifecycle_chunks_drive_the_fold_as_the_rules_say(chunks: list[Any]) -> None:
    accumulator = Accumulator()
    errored = False
    for chunk in chunks:
        before = _read(accumulator)
        if not isinstance(chunk, dict):
            with pytest.raises(GeminiChunkTypeError):
                accumulator.add(chunk)
            assert _read(accumulator) == before  # GM-ROB-NOT-OBJECT: the fold is unchanged
            continue
        accumulator.add(chunk)
        errored = errored or chunk.get("error") is not None
        if errored:
            assert not accumulator.finished  # GM-LIFE-ERROR
            assert accumulator.error is not None


@given(lifecycle_chunks(features={"text"}))
@_SLOW
def test_one_finish_chunk_finishes_the_fold(chunk: Any) -> None:
    accumulator = Accumulator()
    accumulator.add(chunk)
    candidates = chunk.get("candidates", [])
    finishing = bool(candidates) and all("finishReason" in c for c in candidates)
    assert accumulator.finished == finishing  # GM-LIFE-FINISHED
