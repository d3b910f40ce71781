"""Differential: on any stream, lossless or not, the target folds as the reference does.

Streams outside the lossless families (cut off, items lost, repeated or swapped, an error
mid-stream, wrongly typed or blank fields) have no known result; the reference's fold of
the same items is the oracle. The streams and the rules each test checks are the run's
dialect's (its suite kit's `DIFFERENTIAL`, `refold.suites._kits`): a stream only holds
damage whose rules the target claims, `robustness`'s only in the malformed streams.
"""

from __future__ import annotations

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from refold.run.checks import Check

from ._kits import Draw, parametrize_from


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    parametrize_from(metafunc, "DIFFERENTIAL")


def _folds_like_the_reference(check: Check, streams: Draw, data: st.DataObject) -> None:
    __tracebackhide__ = True
    stream = list(data.draw(streams(check.target.features), label=check.dialect.items))
    note(f"{len(stream)} {check.dialect.items}")
    check.folds_like_reference(stream, ablate=True, found_by="fold")


@given(data=st.data())
def test_damaged_streams_fold_like_the_reference(
    check: Check, damaged: Draw, data: st.DataObject
) -> None:
    _folds_like_the_reference(check, damaged, data)


@given(data=st.data())
def test_malformed_streams_fold_like_the_reference(
    check: Check, malformed: Draw, data: st.DataObject
) -> None:
    _folds_like_the_reference(check, malformed, data)
