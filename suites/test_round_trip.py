"""Round trip: every lossless split of a known result folds back to it.

`fold(split(r)) == r` under the dialect's canonical comparison, for every split family of
the dialect's spec (one test each), all of them mixed, and every feature (one test each).
The results, their splits and the rules each case checks are the run's dialect's (its
suite kit's `ROUND_TRIP`, `refold.suites._kits`); they are drawn only with the features
the target claims, so a target is never sent a field it does not claim to fold, and a
case whose marks name a feature the target does not claim is skipped by the harness.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from refold.run.checks import Check

from ._kits import Draw, parametrize_from


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    parametrize_from(metafunc, "ROUND_TRIP")


def _assert_round_trip(check: Check, cases: Draw, data: st.DataObject) -> None:
    __tracebackhide__ = True
    expected, stream = data.draw(cases(check.target.features), label="case")
    note(f"expected {check.dialect.result}: {json.dumps(expected, ensure_ascii=False)}")
    check.folds_to(list(stream), expected, ablate=True, found_by="fold")


@given(data=st.data())
def test_every_split_of_a_family_folds_back_to_the_result(
    check: Check, family: Draw, data: st.DataObject
) -> None:
    _assert_round_trip(check, family, data)


@given(data=st.data())
def test_every_mix_of_the_claimed_families_folds_back_to_the_result(
    check: Check, mixed: Draw, data: st.DataObject
) -> None:
    _assert_round_trip(check, mixed, data)


@given(data=st.data())
def test_every_split_of_a_result_using_one_feature_folds_back_to_it(
    check: Check, feature: Draw, data: st.DataObject
) -> None:
    _assert_round_trip(check, feature, data)
