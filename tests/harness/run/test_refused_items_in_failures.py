"""A failure's stream is the one sent to the target, refused items included: a target that
refuses a `null` chunk and then fails to read its response failed on a stream holding the
`null` (GM-ROB-NOT-OBJECT's shape, synthetic), not on the documented stream it accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from refold.reference import JSON
from refold.run.checks import Check, ConformanceFailure
from refold.targets import load_target

_TARGET = '''
from refold.reference.gemini import Accumulator as Reference


class Accumulator:
    """The reference, but reading the response raises once a chunk was refused."""

    def __init__(self):
        self._fold = Reference()
        self._refused = False

    def add(self, chunk):
        if not isinstance(chunk, dict):
            self._refused = True
            raise TypeError("a chunk must be an object")
        self._fold.add(chunk)

    def response(self):
        if self._refused:
            raise RuntimeError("broken after a refusal")
        return self._fold.response()


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "breaks_after_a_refusal",
    "factory": Accumulator,
    "features": ["text", "robustness"],
}
'''

_CHUNK: JSON = {"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "index": 0}]}


def test_a_crash_after_a_refused_chunk_is_found_on_the_stream_with_it(tmp_path: Path) -> None:
    path = tmp_path / "breaks_after_a_refusal.py"
    path.write_text(_TARGET)
    check = Check(load_target(str(path)))
    check.rules = ("GM-ROB-NOT-OBJECT",)
    accumulator = check.accumulator()
    accumulator.add(_CHUNK)
    assert accumulator.add_raw(None) is not None
    with pytest.raises(ConformanceFailure) as excinfo:
        accumulator.response()
    failure = excinfo.value
    assert failure.chunks == [_CHUNK, None]
    assert accumulator.chunks == [_CHUNK]  # what the fold holds: the refused chunk is not
    shape = failure.stream_shape
    assert shape.shape == "synthetic" and "GMD-NOT-OBJECT" in shape.departures, shape.describe()
