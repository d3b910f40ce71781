"""The rules registry matches the spec."""

import pytest

from refold.reference.chat import FEATURES, RULES, rule, rules_of

# A copy of the spec's rule ids and features (../shared/spec/chat-fold.md), in the
# spec's order. The project never reads the spec at run time; this copy is what a
# change of the spec must be reconciled with.
SPEC_RULES = [
    ("ENV-OBJECT", "text"),
    ("ENV-ID", "text"),
    ("ENV-MODEL", "text"),
    ("ENV-CREATED", "text"),
    ("ENV-NO-ERROR", "text"),
    ("PROV-LAST", "provider_fields"),
    ("PROV-NATIVE-FINISH", "provider_fields"),
    ("CHOICE-KEY", "text"),
    ("CHOICE-ORDER", "choices"),
    ("CHOICE-ROLE", "text"),
    ("CHOICE-FINISH", "text"),
    ("CHOICE-DELTA-NULL", "text"),
    ("TEXT-JOIN", "text"),
    ("TEXT-REFUSAL", "refusal"),
    ("TEXT-REASONING", "reasoning"),
    ("TEXT-ANNOTATIONS", "annotations"),
    ("TOOL-1-OPEN", "tool_calls"),
    ("TOOL-2-NEW-ID", "tool_call_repair"),
    ("TOOL-3-RESEND", "tool_call_repair"),
    ("TOOL-4-SPLIT", "tool_call_repair"),
    ("TOOL-5-APPEND", "tool_calls"),
    ("TOOL-INDEX", "tool_calls"),
    ("TOOL-NO-INDEX", "tool_call_repair"),
    ("TOOL-ADOPT-ID", "tool_calls"),
    ("TOOL-NAME", "tool_calls"),
    ("TOOL-TYPE", "tool_calls"),
    ("TOOL-OUTPUT", "tool_calls"),
    ("TOOL-RAW", "tool_calls"),
    ("TOOL-EMPTY-ARGS", "empty_arguments"),
    ("RD-MERGE", "reasoning_details"),
    ("RD-FIELDS", "reasoning_details"),
    ("RD-INDEXLESS", "reasoning_details"),
    ("RD-AS-SENT", "reasoning_details"),
    ("RD-ORDER", "reasoning_details"),
    ("LP-CONCAT", "logprobs"),
    ("LP-SHAPE", "logprobs"),
    ("LP-SKIP", "logprobs"),
    ("USAGE-LAST", "usage"),
    ("ROB-NULL-ENTRIES", "robustness"),
    ("ROB-BLANK", "robustness"),
    ("ROB-WRONG-TYPE", "robustness"),
    ("ROB-NOT-OBJECT", "robustness"),
    ("ROB-UNKNOWN-KEYS", "robustness"),
    ("LIFE-EMPTY", "lifecycle"),
    ("LIFE-SNAPSHOT", "lifecycle"),
    ("LIFE-FINISHED", "lifecycle"),
    ("LIFE-DONE", "lifecycle"),
    ("LIFE-ERROR", "lifecycle"),
    ("LIFE-AFTER", "lifecycle"),
]
SPEC_FEATURES = [
    "text",
    "choices",
    "tool_calls",
    "tool_call_repair",
    "empty_arguments",
    "refusal",
    "reasoning",
    "reasoning_details",
    "annotations",
    "logprobs",
    "usage",
    "provider_fields",
    "robustness",
    "lifecycle",
    "sse",
    "events",
]


def test_the_registry_has_exactly_the_spec_rules_in_the_spec_order() -> None:
    assert [(r.id, r.feature) for r in RULES.values()] == SPEC_RULES


def test_the_feature_vocabulary_is_the_spec_vocabulary() -> None:
    assert list(FEATURES) == SPEC_FEATURES


def test_every_rule_has_a_one_line_statement() -> None:
    for entry in RULES.values():
        assert entry.statement.strip() and "\n" not in entry.statement, entry.id


def test_every_rule_feature_is_in_the_vocabulary() -> None:
    assert {r.feature for r in RULES.values()} <= set(FEATURES)


def test_rules_of_a_feature_keep_the_spec_order() -> None:
    assert [r.id for r in rules_of("logprobs")] == ["LP-CONCAT", "LP-SHAPE", "LP-SKIP"]


def test_an_unknown_rule_id_is_reported_with_the_rule_count() -> None:
    with pytest.raises(KeyError, match=r"'TOOL-9'.*49 rules"):
        rule("TOOL-9")
