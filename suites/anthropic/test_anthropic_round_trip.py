"""Round trip: every lossless split of a known Message folds back to it.

`fold(split(m)) == m` under the dialect's canonical comparison, for every split family of
anthropic-fold.md (one test each, plus all of them mixed) and for every feature (one test
each). Messages are drawn only with the features the target claims, so a target is never
sent a block or field it does not claim to fold; a test whose marks name a feature the
target does not claim is skipped by the harness.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule
from refold.strategies.anthropic import families_for, round_trips

_TOOL_FEATURES = frozenset({"text", "tool_use", "server_tools"})
_THINKING_FEATURES = frozenset({"text", "thinking"})
_CITATION_FEATURES = frozenset({"text", "citations"})
_WHOLE_BLOCK_FEATURES = frozenset({"text", "server_tools", "thinking", "robustness"})
_USAGE_FEATURES = frozenset({"text", "usage"})
_TEXT_FEATURES = frozenset({"text"})
"""What a family's messages are drawn with (when claimed): the blocks and fields its
shapes concern, so the examples go there."""

_FAMILIES = [
    pytest.param(
        1,
        None,
        marks=rule(
            "AM-START-BASE",
            "AM-BLOCK-OPEN",
            "AM-BLOCK-ORDER",
            "AM-BLOCK-STOP",
            "AM-TEXT-JOIN",
            "AM-STOP-REASON",
            "AM-STOP-SEQUENCE",
        ),
        id="family-1-anthropic-shape",
    ),
    pytest.param(2, _TEXT_FEATURES, marks=rule("AM-TEXT-JOIN"), id="family-2-text-splits"),
    pytest.param(
        3,
        _TOOL_FEATURES,
        marks=rule("AM-TOOL-JOIN", "AM-TOOL-NO-DELTA", "AM-TOOL-IDENTITY"),
        id="family-3-tool-input-texts",
    ),
    pytest.param(
        4,
        _THINKING_FEATURES,
        marks=rule("AM-THINK-JOIN", "AM-THINK-SIGNATURE"),
        id="family-4-thinking-splits",
    ),
    pytest.param(
        5, _CITATION_FEATURES, marks=rule("AM-CITATIONS-APPEND"), id="family-5-citations-among-text"
    ),
    pytest.param(
        6,
        _WHOLE_BLOCK_FEATURES,
        marks=rule("AM-BLOCK-OPEN", "AM-RESULT-AS-SENT"),
        id="family-6-blocks-without-deltas",
    ),
    pytest.param(
        7,
        _USAGE_FEATURES,
        marks=rule("AM-USAGE-BASE", "AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM"),
        id="family-7-usage-re-reported",
    ),
    pytest.param(
        8,
        None,
        marks=rule("AM-PING", "AM-UNKNOWN-EVENT", "AM-UNKNOWN-KEYS", "AM-BEFORE-START"),
        id="family-8-noise",
    ),
    pytest.param(
        9,
        None,
        marks=rule("AM-START-CONTENT", "AM-START-BASE"),
        id="family-9-finished-in-message-start",
    ),
]

_FEATURES = [
    # each feature's messages have text blocks, split as family 2 splits them (a prefix
    # on content_block_start included): AM-TEXT-JOIN is every parameter's rule
    pytest.param(
        "text",
        marks=rule(
            "AM-TEXT-JOIN",
            "AM-BLOCK-OPEN",
            "AM-BLOCK-ORDER",
            "AM-START-BASE",
            "AM-STOP-REASON",
            "AM-STOP-SEQUENCE",
        ),
    ),
    pytest.param(
        "tool_use",
        marks=rule("AM-TEXT-JOIN", "AM-TOOL-JOIN", "AM-TOOL-NO-DELTA", "AM-TOOL-IDENTITY"),
    ),
    pytest.param("server_tools", marks=rule("AM-TEXT-JOIN", "AM-SERVER-TOOL", "AM-RESULT-AS-SENT")),
    pytest.param(
        "thinking", marks=rule("AM-TEXT-JOIN", "AM-THINK-JOIN", "AM-THINK-SIGNATURE", "AM-REDACTED")
    ),
    pytest.param("citations", marks=rule("AM-TEXT-JOIN", "AM-CITATIONS-APPEND")),
    pytest.param("stop_details", marks=rule("AM-TEXT-JOIN", "AM-STOP-DETAILS", "AM-CONTAINER")),
    pytest.param(
        "usage",
        marks=rule(
            "AM-TEXT-JOIN",
            "AM-USAGE-BASE",
            "AM-USAGE-REPLACE",
            "AM-USAGE-NEVER-SUM",
            "AM-USAGE-ABSENT",
        ),
    ),
]


def _assert_round_trip(check: Check, case: tuple[JSONObject, list[JSONObject]]) -> None:
    __tracebackhide__ = True
    message, events = case
    note(f"expected message: {json.dumps(message, ensure_ascii=False)}")
    check.folds_to(events, message)


@pytest.mark.parametrize(("family", "focus"), _FAMILIES)
@given(data=st.data())
def test_every_split_of_a_family_folds_back_to_the_message(
    check: Check, family: int, focus: frozenset[str] | None, data: st.DataObject
) -> None:
    claimed = check.target.features
    features = claimed & focus if focus else claimed
    case = data.draw(round_trips(features=features, families={1, family}), label="case")
    _assert_round_trip(check, case)


@rule("AM-START-BASE", "AM-BLOCK-ORDER", "AM-TEXT-JOIN", "AM-STOP-REASON")
@given(data=st.data())
def test_every_mix_of_the_claimed_families_folds_back_to_the_message(
    check: Check, data: st.DataObject
) -> None:
    claimed = check.target.features
    case = data.draw(round_trips(features=claimed, families=families_for(claimed)), label="case")
    _assert_round_trip(check, case)


@pytest.mark.parametrize("feature", _FEATURES)
@given(data=st.data())
def test_every_split_of_a_message_using_one_feature_folds_back_to_it(
    check: Check, feature: str, data: st.DataObject
) -> None:
    # Only the families whose rules are `text`'s or the feature's: a per-feature test
    # must fail only on its feature's rules (no noise, which is robustness').
    features = frozenset({"text", feature})
    case = data.draw(round_trips(features=features, families=families_for(features)), label="case")
    _assert_round_trip(check, case)
