"""The Anthropic pointer table's fallbacks (`refold.reference.anthropic.rules_at`): a
place the table does not name is outside the Message's shape, the whole Message is no
rule's. The table's own rows are checked in tests/test_attribution_anthropic.py."""

from __future__ import annotations

from refold.reference.anthropic import OUTSIDE_THE_SHAPE, rules_at


def test_a_place_the_table_does_not_name_is_charged_to_the_outside_the_shape_rules() -> None:
    # a key kept from message_start (AM-START-BASE) or put there by an envelope's key
    # (AM-UNKNOWN-KEYS): the fold must not have invented it either way
    assert rules_at("/amazon-bedrock-invocationMetrics") == OUTSIDE_THE_SHAPE
    assert rules_at("/x/0/y") == OUTSIDE_THE_SHAPE == {"AM-START-BASE", "AM-UNKNOWN-KEYS"}


def test_the_whole_message_is_charged_to_no_rule() -> None:
    assert rules_at("") == frozenset()
    assert rules_at("/stop_reason") == {"AM-STOP-REASON"}  # a named place is the table's
