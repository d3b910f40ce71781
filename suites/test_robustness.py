"""Robustness (feature `robustness`): whatever a JSON object holds, the fold goes on; what
is not a JSON object is refused and changes nothing.

The properties that vary a stream compare the target with itself: a lossless stream
against the same stream with what a robustness rule says cannot matter added (the
dialect's noise: keepalives, unknown events, deltas, keys or entries) or with fields of the
wrong JSON type (against the stream without those fields). A fault in some other rule
folds both sides alike, so these fail only when what the rules say cannot matter does.
What each property sends and the rules each case checks are the run's dialect's (its suite
kit's `ROBUSTNESS`, `refold.suites._kits`; the cases' shapes, `refold.suites._robustness`).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.run.checks import Check

from ._json_values import non_objects
from ._kits import parametrize_from
from ._robustness import Refusal, Variant, Varied

Junk = Callable[[frozenset[str], st.DataObject], list[JSON]]
Kept = Callable[[frozenset[str], st.DataObject], tuple[list[JSON], JSONObject]]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    parametrize_from(metafunc, "ROBUSTNESS")


def _folds_alike(check: Check, variant: Variant) -> None:
    """Fail unless the changed stream folds as its baseline does, both through the target."""
    __tracebackhide__ = True
    note(f"baseline: {json.dumps(variant.baseline, ensure_ascii=False)}")
    expected = check.fold(variant.baseline, ablate=True)
    received = check.fold(variant.changed, ablate=True)
    differ = check.differences if variant.masked else check.projected_differences
    found = differ(expected, received)
    if found:
        raise check.fail(
            f"the fold differs from the target's own fold of the same {check.dialect.items} "
            f"without {variant.without}",
            events=variant.changed,
            differences=found,
            expected=expected,
            received=received,
        )


@given(data=st.data())
def test_a_field_of_the_wrong_type_folds_as_if_absent(
    check: Check, wrong_typed: Varied, data: st.DataObject
) -> None:
    _folds_alike(check, wrong_typed(check.target.features, data))


@given(data=st.data())
def test_any_json_object_as_an_item_never_makes_the_fold_raise(
    check: Check, junk: Junk, data: st.DataObject
) -> None:
    check.fold(junk(check.target.features, data))


@given(data=st.data())
def test_what_the_robustness_rules_pass_over_changes_nothing(
    check: Check, noise: Varied, data: st.DataObject
) -> None:
    _folds_alike(check, noise(check.target.features, data))


@given(data=st.data())
def test_a_part_of_an_unknown_type_is_kept_as_sent(
    check: Check, kept: Kept, data: st.DataObject
) -> None:
    stream, expected = kept(check.target.features, data)
    check.folds_to(stream, expected)


@given(value=non_objects())
def test_an_item_that_is_not_an_object_is_refused(
    check: Check, refused: Refusal, value: JSON
) -> None:
    check.refuses(value)


@given(data=st.data(), value=non_objects())
def test_refusing_an_item_leaves_the_fold_unchanged(
    check: Check, refused: Refusal, data: st.DataObject, value: JSON
) -> None:
    if "lifecycle" not in check.target.features:
        pytest.skip(
            f"target {check.target.name} does not claim feature lifecycle, which "
            f"this test needs to read the fold before and after a refusal"
        )
    stream = refused.stream(check.target.features, data)
    first = 0 if refused.empty else 1
    position = data.draw(st.integers(first, len(stream)), label="refused at")
    accumulator = check.accumulator()
    for item in stream[:position]:
        accumulator.add(item)
    before = accumulator.response() if position else None
    if accumulator.add_raw(value) is None:
        raise check.fail(
            f"add() accepted a {type(value).__name__} as one of the {check.dialect.items}",
            events=[*stream[:position], value],
        )
    if position:
        _unchanged(check, refused, before, accumulator.response(), [*stream[:position], value])
    elif accumulator.response_error() is None:
        raise check.fail(
            f"after refusing the only {check.dialect.item}, response() returned a "
            f"{check.dialect.result} instead of the {refused.empty} error",
            events=[value],
        )
    for item in stream[position:]:
        accumulator.add(item)
    if stream:
        _unchanged(
            check,
            refused,
            check.fold(stream),
            accumulator.response(),
            [*stream[:position], value, *stream[position:]],
        )


def _unchanged(
    check: Check, refused: Refusal, expected: JSON, received: JSON, stream: list[JSON]
) -> None:
    __tracebackhide__ = True
    differ = check.differences if refused.masked else check.projected_differences
    found = differ(expected, received)
    if found:
        raise check.fail(
            f"refusing a {check.dialect.item} that is not an object changed the fold",
            events=stream,
            differences=found,
            expected=expected,
            received=received,
        )
