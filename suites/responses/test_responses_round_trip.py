"""Round trip: every lossless split of a known Response folds back to it.

`fold(split(r)) == r` under the dialect's canonical comparison, for every split family of
responses-fold.md (one test each, plus all of them mixed) and for every feature (one test
each). Responses are drawn only with the features the target claims, so a target is never
sent an item or part it does not claim to fold; a test whose marks name a feature the
target does not claim is skipped by the harness.

A stream's items show only when the terminal leaves its output out (families 2 and 4:
RS-OUTPUT-RECOVER); families 3, 5 and 6 are therefore drawn together with family 2, so
that their shapes are the ones the fold has to build the output from. Family 7's
`robustness` noise (keepalives, unknown events and keys) is left to the robustness suite:
here it is drawn without it, so these tests fail only on `text` rules.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.checks import Check
from refold.marks import rule
from refold.reference import JSONObject
from refold.strategies.responses import families_for, round_trips

_STREAMED = ("RS-OUTPUT-RECOVER", "RS-OUTPUT-ORDER", "RS-KEY-OUTPUT-INDEX", "RS-ITEM-DONE-REPLACES")
"""What decides the output whenever the terminal leaves it out."""

_FAMILIES = [
    pytest.param(
        frozenset({1}),
        marks=rule(
            "RS-TERMINAL-BASE",
            "RS-ENV-TERMINAL",
            "RS-OBJECT",
            "RS-OUTPUT-TERMINAL",
            "RS-HOSTED-ITEMS",
            "RS-TERMINAL-EVENTS",
            "RS-INCOMPLETE",
            "RS-FAILED",
        ),
        id="family-1-openai-shape",
    ),
    pytest.param(
        frozenset({1, 2}),
        marks=rule(*_STREAMED, "RS-DONE-REPLACES", "RS-HOSTED-ITEMS"),
        id="family-2-terminal-output-omitted",
    ),
    pytest.param(
        frozenset({2, 3}), marks=rule(*_STREAMED, "RS-DONE-REPLACES"), id="family-3-done-only"
    ),
    pytest.param(
        frozenset({4}),
        marks=rule(
            *_STREAMED,
            "RS-RECOVER-FROM-DELTAS",
            "RS-RECOVER-STATUS",
            "RS-TEXT-JOIN",
            "RS-CONTENT-INDEX",
        ),
        id="family-4-deltas-only",
    ),
    pytest.param(
        frozenset({2, 5}), marks=rule(*_STREAMED, "RS-ROUTE"), id="family-5-rotating-or-missing-ids"
    ),
    pytest.param(
        frozenset({2, 6}), marks=rule(*_STREAMED, "RS-ORPHAN", "RS-READD"), id="family-6-orphans"
    ),
    pytest.param(
        frozenset({2, 7}),
        marks=rule("RS-SEQ-ARRIVAL", "RS-TERMINAL-REPEAT", "RS-ENV-TERMINAL", *_STREAMED),
        id="family-7-noise",
    ),
]

_FEATURES = [
    # each feature's responses have message items too: RS-TEXT-JOIN is every one's rule
    pytest.param("text", marks=rule("RS-TEXT-JOIN", "RS-TERMINAL-BASE", *_STREAMED)),
    pytest.param(
        "tool_calls", marks=rule("RS-TEXT-JOIN", "RS-CALL-IDS", "RS-ARGS-JOIN", "RS-ARGS-RAW")
    ),
    pytest.param("refusal", marks=rule("RS-TEXT-JOIN", "RS-REFUSAL")),
    pytest.param(
        "reasoning", marks=rule("RS-TEXT-JOIN", "RS-REASONING-SUMMARY", "RS-REASONING-TEXT")
    ),
    pytest.param("annotations", marks=rule("RS-TEXT-JOIN", "RS-ANNOTATIONS")),
    pytest.param("usage", marks=rule("RS-TEXT-JOIN", "RS-USAGE-TERMINAL")),
]


def _assert_round_trip(check: Check, case: tuple[JSONObject, list[JSONObject]]) -> None:
    __tracebackhide__ = True
    expected, events = case  # the failure shows the expected response: no note needed
    check.folds_to(list(events), expected, ablate=True, found_by="fold")


def _fold_features(check: Check) -> frozenset[str]:
    """The claimed features a response and its split are drawn with: robustness noise is
    the robustness suite's."""
    return check.target.features - {"robustness", "lifecycle", "sse", "events"}


@pytest.mark.parametrize("families", _FAMILIES)
@given(data=st.data())
def test_every_split_of_a_family_folds_back_to_the_response(
    check: Check, families: frozenset[int], data: st.DataObject
) -> None:
    # text only: the family's shapes are about items, whichever kinds the target claims
    case = data.draw(round_trips(features=frozenset({"text"}), families=families), label="case")
    _assert_round_trip(check, case)


@rule(
    "RS-TERMINAL-BASE", "RS-OUTPUT-TERMINAL", "RS-OUTPUT-RECOVER", "RS-OUTPUT-ORDER", "RS-TEXT-JOIN"
)
@given(data=st.data())
def test_every_mix_of_the_claimed_families_folds_back_to_the_response(
    check: Check, data: st.DataObject
) -> None:
    features = _fold_features(check)
    case = data.draw(round_trips(features=features, families=families_for(features)), label="case")
    _assert_round_trip(check, case)


@pytest.mark.parametrize("feature", _FEATURES)
@given(data=st.data())
def test_every_split_of_a_response_using_one_feature_folds_back_to_it(
    check: Check, feature: str, data: st.DataObject
) -> None:
    # every family (text's) with the feature's items; no robustness noise
    features = frozenset({"text", feature})
    case = data.draw(round_trips(features=features, families=families_for(features)), label="case")
    _assert_round_trip(check, case)
