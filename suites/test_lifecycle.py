"""Lifecycle: the incremental interface (feature `lifecycle`), as a Hypothesis state machine
over add / read (and mark_done where the dialect has it), and the reads before a fold
starts.

Each concern is its own test, parametrized by the run's dialect's suite kit's `LIFECYCLE`
(`refold.suites._kits`): the machine of each concern (`refold.suites._lifecycle`: the
snapshot, `finished` and reference concerns every dialect has, and its own), marked with
the rules it checks; how reading before the fold starts must fail; and the damage that
needs `lifecycle` to be folded (a stream cut anywhere, items after the end), where the
dialect draws it. Items are drawn only with the features the target claims: a target that
does not claim `robustness` is never sent its noise, so a correct lifecycle is never failed
for a robustness fault.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.run.checks import Check

from ._kits import Draw, parametrize_from
from ._lifecycle import LifecycleMachine, run_machine

Empty = Callable[[Check, st.DataObject], None]
"""A dialect's check that reading before its fold starts fails, and one start is enough."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    parametrize_from(metafunc, "LIFECYCLE")


def test_the_lifecycle_concern_holds_after_every_step(
    check: Check, concern: type[LifecycleMachine]
) -> None:
    needs = getattr(concern, "needs_lifecycle", None)
    if needs and "lifecycle" not in check.target.features:
        pytest.skip(
            f"target {check.target.name} does not claim feature lifecycle, which "
            f"this test needs to {needs}"
        )
    run_machine(concern, check)


@given(data=st.data())
def test_reading_before_the_fold_starts_fails(
    check: Check, empty: Empty, data: st.DataObject
) -> None:
    empty(check, data)


@given(data=st.data())
def test_streams_cut_or_going_on_after_the_end_fold_like_the_reference(
    check: Check, cut: Draw, data: st.DataObject
) -> None:
    stream = list(data.draw(cut(check.target.features), label=check.dialect.items))
    check.folds_to(
        stream,
        check.dialect.fold(stream),
        what="the reference's fold",
        ablate=True,
        found_by="fold",
    )
