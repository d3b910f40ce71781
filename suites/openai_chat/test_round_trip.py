"""Round trip: every lossless split of a known completion folds back to it.

`fold(split(c)) == c` under the canonical comparison, for every split family of the
spec (one test each, plus all of them mixed) and for every feature (one test each).
Completions are drawn only with the features the target claims, so a target is
never sent a field it does not claim to fold.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from refold.checks import Check
from refold.marks import rule
from refold.reference import JSONObject
from refold.strategies import families_for, round_trips

_TOOL_FEATURES = frozenset({"text", "choices", "tool_calls", "tool_call_repair", "empty_arguments"})
"""What a tool-call family's completions are drawn with (when claimed): its shapes
only concern calls, so the examples go to calls."""

_FEATURE_FAMILIES = families_for({"text", "tool_calls"})
"""The families whose rules belong to `text` and `tool_calls` alone (1, 2 and 5): a
per-feature test must fail only on its feature's rules."""

_FAMILIES = [
    pytest.param(
        1,
        None,
        marks=rule(
            "TEXT-JOIN",
            "CHOICE-KEY",
            "CHOICE-ROLE",
            "CHOICE-FINISH",
            "ENV-ID",
            "ENV-MODEL",
            "ENV-CREATED",
            "ENV-OBJECT",
        ),
        id="family-1-openai-shape",
    ),
    pytest.param(
        2,
        None,
        marks=rule("CHOICE-ROLE", "TOOL-NAME", "TOOL-TYPE", "TOOL-ADOPT-ID"),
        id="family-2-identity-repeated",
    ),
    pytest.param(
        3,
        _TOOL_FEATURES,
        marks=rule("TOOL-2-NEW-ID", "TOOL-OUTPUT"),
        id="family-3-calls-sharing-an-index",
    ),
    pytest.param(
        4, _TOOL_FEATURES, marks=rule("TOOL-NO-INDEX", "TOOL-2-NEW-ID"), id="family-4-no-index"
    ),
    pytest.param(5, _TOOL_FEATURES, marks=rule("TOOL-ADOPT-ID"), id="family-5-late-id"),
    pytest.param(6, _TOOL_FEATURES, marks=rule("TOOL-3-RESEND"), id="family-6-re-sends"),
    pytest.param(7, _TOOL_FEATURES, marks=rule("TOOL-EMPTY-ARGS"), id="family-7-no-argument-calls"),
    pytest.param(
        8,
        None,
        marks=rule(
            "ROB-NULL-ENTRIES",
            "ROB-BLANK",
            "ROB-UNKNOWN-KEYS",
            "CHOICE-DELTA-NULL",
            "ENV-ID",
            "CHOICE-FINISH",
        ),
        id="family-8-noise",
    ),
]

_FEATURES = [
    pytest.param("choices", marks=rule("CHOICE-ORDER", "CHOICE-KEY")),
    pytest.param(
        "tool_calls",
        marks=rule(
            "TOOL-1-OPEN",
            "TOOL-5-APPEND",
            "TOOL-INDEX",
            "TOOL-NAME",
            "TOOL-TYPE",
            "TOOL-OUTPUT",
            "TOOL-RAW",
        ),
    ),
    pytest.param("refusal", marks=rule("TEXT-REFUSAL")),
    pytest.param("reasoning", marks=rule("TEXT-REASONING")),
    pytest.param(
        "reasoning_details",
        marks=rule("RD-MERGE", "RD-FIELDS", "RD-INDEXLESS", "RD-AS-SENT", "RD-ORDER"),
    ),
    pytest.param("annotations", marks=rule("TEXT-ANNOTATIONS")),
    pytest.param("logprobs", marks=rule("LP-CONCAT", "LP-SHAPE")),
    pytest.param("usage", marks=rule("USAGE-LAST")),
    pytest.param("provider_fields", marks=rule("PROV-LAST", "PROV-NATIVE-FINISH")),
]


def _assert_round_trip(check: Check, case: tuple[JSONObject, list[JSONObject]]) -> None:
    __tracebackhide__ = True
    completion, chunks = case
    note(f"expected completion: {json.dumps(completion, ensure_ascii=False)}")
    check.folds_to(chunks, completion)


@pytest.mark.parametrize(("family", "focus"), _FAMILIES)
@given(data=st.data())
def test_every_split_of_a_family_folds_back_to_the_completion(
    check: Check, family: int, focus: frozenset[str] | None, data: st.DataObject
) -> None:
    claimed = check.target.features
    features = claimed & focus if focus else claimed
    case = data.draw(round_trips(features=features, families={1, family}), label="case")
    _assert_round_trip(check, case)


@rule("TEXT-JOIN", "CHOICE-KEY", "CHOICE-FINISH", "ENV-ID")
@given(data=st.data())
def test_every_mix_of_the_claimed_families_folds_back_to_the_completion(
    check: Check, data: st.DataObject
) -> None:
    claimed = check.target.features
    case = data.draw(round_trips(features=claimed, families=families_for(claimed)), label="case")
    _assert_round_trip(check, case)


@pytest.mark.parametrize("feature", _FEATURES)
@given(data=st.data())
def test_every_split_of_a_completion_using_one_feature_folds_back_to_it(
    check: Check, feature: str, data: st.DataObject
) -> None:
    features = frozenset({"text", feature})
    case = data.draw(round_trips(features=features, families=_FEATURE_FAMILIES), label="case")
    _assert_round_trip(check, case)
