"""A failure found on a departing stream whose departures can all be undone while it stays
is reported on the undone, less departing stream (verdicts.md §2): its stream, values,
differences or crash, and so its shape, are the undone stream's."""

from __future__ import annotations

from pathlib import Path

import pytest
from _shaped_dialect import shaped

from refold.records.replay import failure_record
from refold.reference import JSON
from refold.run.checks import Check, ConformanceFailure
from refold.targets import Target, load_target
from refold.verdicts.crashes import Crash, analyse, raised_again
from refold.verdicts.undone import report_on_undone

_LOSES_THE_LAST_FRAGMENT = """
from refold.reference.chat import fold as _fold


def fold(chunks):
    kept = [dict(c) for c in chunks]
    kept[-1] = {**kept[-1], "choices": [{**e, "delta": {**e["delta"], "content": ""}}
                                         for e in kept[-1]["choices"]]}
    return _fold(kept)
"""

_RAISES_ON_BOOM = """
from refold.reference.chat import fold as _fold


def fold(chunks):
    for chunk in chunks:
        for entry in chunk.get("choices") or []:
            if (entry.get("delta") or {}).get("content") == "boom":
                raise KeyError("boom")
    return _fold(chunks)
"""


def _chunk(content: str, **extra: JSON) -> JSON:
    return {"id": "c", "choices": [{"index": 0, "delta": {"content": content}}], **extra}


# x_bogus is a synthetic departure (`_shaped_dialect`) and, to the chat ablation, an unknown
# key (ROB-UNKNOWN-KEYS) whose undoing the reference folds identically
_DEPARTING = [_chunk("a", x_bogus=1), _chunk("b")]
_UNDONE = [_chunk("a"), _chunk("b")]


def _target(tmp_path: Path, source: str) -> Target:
    path = tmp_path / "target.py"
    path.write_text(source, encoding="utf-8")
    return load_target(str(path))


def _failure(target: Target, stream: list[JSON]) -> ConformanceFailure:
    check = Check(target)
    check.rules = ("TEXT-JOIN",)
    with pytest.raises(ConformanceFailure) as raised:
        check.folds_like_reference(stream)
    return raised.value


def test_a_fold_difference_that_stays_is_shown_on_the_undone_stream(tmp_path: Path) -> None:
    target = _target(tmp_path, _LOSES_THE_LAST_FRAGMENT)
    with shaped():
        failure = _failure(target, _DEPARTING)
        found_on = failure.stream_shape.shape
        assert report_on_undone(failure, target, rules=("TEXT-JOIN",), masked=frozenset())
        assert (found_on, failure.stream_shape.shape) == ("synthetic", "documented")
        assert failure.chunks == _UNDONE
        assert [d.pointer for d in failure.differences] == ["/choices/0/message/content"]
        assert failure.received == target.fold(_UNDONE)
        assert (failure.differences[0].expected, failure.differences[0].received) == ("ab", "a")
        record = failure_record(failure)
    assert record["shape"] == "documented" and record["departures"] == []
    assert record["impact"] == "loss" and record["chunks"] == _UNDONE
    assert "undone (synthetic: T-BOGUS): the failure stays there" in record["message"]
    target.close()


def test_a_crash_that_stays_is_shown_on_the_undone_stream(tmp_path: Path) -> None:
    target = _target(tmp_path, _RAISES_ON_BOOM)
    stream = [_chunk("a", x_bogus=1), _chunk("boom")]
    with shaped():
        failure = _failure(target, stream)
        assert failure.crash is not None
        analyse(failure.crash, stream, target)
        assert not failure.crash.explained  # undoing the unknown key leaves the crash
        assert report_on_undone(failure, target, rules=("TEXT-JOIN",), masked=frozenset())
        assert failure.chunks == [_chunk("a"), _chunk("boom")]
        assert failure.stream_shape.shape == "documented"
        assert failure.crash.at_chunk == 2 and failure.crash.analysed
        assert failure.impact == "crash"
    target.close()


def test_a_failure_that_goes_away_when_undone_stays_where_it_was_found(
    tmp_path: Path,
) -> None:
    # the reference, except that a chunk carrying x_bogus loses its text: the departure
    # is what the target gets wrong, so nothing less departing shows it
    target = _target(
        tmp_path,
        _LOSES_THE_LAST_FRAGMENT.replace(
            "kept[-1] = {", "kept[-1] = kept[-1] if 'x_bogus' not in kept[-1] else {"
        ),
    )
    stream = [_chunk("a"), _chunk("b", x_bogus=1)]
    with shaped():
        failure = _failure(target, stream)
        assert not report_on_undone(failure, target, rules=("TEXT-JOIN",), masked=frozenset())
        assert failure.chunks == stream and failure.stream_shape.shape == "synthetic"
    target.close()


def test_a_dialect_that_tells_no_shapes_reports_every_failure_where_it_was_found(
    tmp_path: Path,
) -> None:
    target = _target(tmp_path, _LOSES_THE_LAST_FRAGMENT)
    with shaped(None):
        failure = _failure(target, _DEPARTING)
        assert not report_on_undone(failure, target, rules=("TEXT-JOIN",), masked=frozenset())
        assert failure.chunks == _DEPARTING and failure.stream_shape.shape == "synthetic"
    target.close()


class _Untouchable:
    """A target that must not be called."""

    def fold(self, chunks: list[JSON]) -> JSON:
        raise AssertionError("the target was called")


def test_a_timed_out_target_is_not_run_again_on_the_undone_stream() -> None:
    crash = Crash("fold(chunks)", "timeout")
    assert raised_again(crash, _UNDONE, _Untouchable()) is None  # type: ignore[arg-type]
