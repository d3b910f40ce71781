"""The Anthropic pointer table (`refold.dialects.anthropic_messages.attribution.rules_at`): every
AM rule owns
a pointer or is declared pointer-less, and a pointer names only the rules that decide the
value there, so a defect found by a test of other rules is charged to its own rule; a
place the table does not name is outside the Message's shape, the whole Message is no
rule's."""

from __future__ import annotations

from refold.dialects.anthropic_messages.attribution import (
    _TABLE,
    OUTSIDE_THE_SHAPE,
    POINTERLESS,
    rules_at,
)
from refold.reference.anthropic import ABSENT, RULES, Difference
from refold.run.checks import ConformanceFailure


def test_every_rule_owns_a_pointer_or_is_declared_pointer_less() -> None:
    owners = {r for _, rules in _TABLE for r in rules} | OUTSIDE_THE_SHAPE
    both = owners & POINTERLESS
    assert not both, f"both own pointers and are declared pointer-less: {sorted(both)}"
    unaccounted = sorted(set(RULES) - owners - POINTERLESS)
    assert not unaccounted, f"own no pointer and are not declared pointer-less: {unaccounted}"
    assert set(POINTERLESS) <= set(RULES)


def test_the_envelope_is_start_bases_and_which_start_counts_owns_no_pointer() -> None:
    # a per-stream id (litellm, AQ16) breaks AM-START-BASE; which message_start counts
    # (AM-START-ONCE) is about reading events and is seen through START-BASE's pointers
    assert rules_at("/id") == rules_at("/model") == {"AM-START-BASE"}
    assert "AM-START-ONCE" in POINTERLESS
    failure = ConformanceFailure(
        ("AM-BLOCK-OPEN",), "differs", differences=[Difference("/id", "msg_1", "msg_other")]
    )
    assert failure.implicated == ("AM-START-BASE",)


def test_the_stop_reason_is_stop_reasons_alone() -> None:
    # AM-START-CONTENT's "its stop_reason stands" restates AM-STOP-REASON's "starts as
    # message_start's": a stop-reason defect found by any test is AM-STOP-REASON's
    assert rules_at("/stop_reason") == {"AM-STOP-REASON"}
    failure = ConformanceFailure(
        ("AM-USAGE-BASE",), "differs", differences=[Difference("/stop_reason", "end_turn", None)]
    )
    assert failure.implicated == ("AM-STOP-REASON",)


def test_a_missing_block_is_charged_to_the_rules_that_decide_which_blocks_there_are() -> None:
    owners = rules_at("/content/1")
    assert {"AM-BLOCK-OPEN", "AM-UNKNOWN-BLOCK"} <= owners
    # what a kept block holds is decided at its keys, not by its presence
    assert not owners & {"AM-RESULT-AS-SENT", "AM-REDACTED"}
    assert "AM-RESULT-AS-SENT" in rules_at("/content/1/content")
    assert "AM-REDACTED" in rules_at("/content/1/data")
    assert Difference("/content/1", {"type": "text", "text": ""}, ABSENT).pointer == "/content/1"


def test_a_count_is_decided_by_the_usage_rules_that_fold_counts() -> None:
    # whether there is a usage at all is AM-USAGE-ABSENT's; a count's value is not
    assert "AM-USAGE-ABSENT" in rules_at("/usage")
    assert rules_at("/usage/output_tokens") == {
        "AM-USAGE-BASE",
        "AM-USAGE-REPLACE",
        "AM-USAGE-NEVER-SUM",
    }


def test_a_place_the_table_does_not_name_is_charged_to_the_outside_the_shape_rules() -> None:
    # a key kept from message_start (AM-START-BASE) or put there by an envelope's key
    # (AM-UNKNOWN-KEYS): the fold must not have invented it either way
    assert rules_at("/amazon-bedrock-invocationMetrics") == OUTSIDE_THE_SHAPE
    assert rules_at("/x/0/y") == OUTSIDE_THE_SHAPE == {"AM-START-BASE", "AM-UNKNOWN-KEYS"}


def test_the_whole_message_is_charged_to_no_rule() -> None:
    assert rules_at("") == frozenset()
    assert rules_at("/stop_reason") == {"AM-STOP-REASON"}  # a named place is the table's
