"""The Responses pointer table (`refold.dialects.openai_responses.attribution.rules_at`): every RS
rule owns
a pointer or is declared pointer-less, and a pointer names only the rules that decide the
value there, so a defect found by a test of other rules is charged to its own rule; a
top-level place the table does not name is the terminal response's as sent, the whole
Response is no rule's."""

from __future__ import annotations

from refold.dialects.openai_responses.attribution import (
    _TABLE,
    OUTSIDE_THE_SHAPE,
    POINTERLESS,
    rules_at,
)
from refold.reference.responses import RULES, Difference
from refold.run.checks import ConformanceFailure


def test_every_rule_owns_a_pointer_or_is_declared_pointer_less() -> None:
    owners = {r for _, rules in _TABLE for r in rules} | OUTSIDE_THE_SHAPE
    both = owners & POINTERLESS
    assert not both, f"both own pointers and are declared pointer-less: {sorted(both)}"
    unaccounted = sorted(set(RULES) - owners - POINTERLESS)
    assert not unaccounted, f"own no pointer and are not declared pointer-less: {unaccounted}"
    assert set(POINTERLESS) <= set(RULES) and set(owners) <= set(RULES)


def test_object_is_rs_objects_alone() -> None:
    assert rules_at("/object") == {"RS-OBJECT"}
    failure = ConformanceFailure(
        ("RS-TEXT-JOIN",), "differs", differences=[Difference("/object", "response", None)]
    )
    assert failure.implicated == ("RS-OBJECT",)


def test_a_text_defect_is_charged_to_the_text_rules_not_to_the_envelope() -> None:
    owners = rules_at("/output/0/content/1/text")
    assert {"RS-TEXT-JOIN", "RS-DONE-REPLACES", "RS-CONTENT-INDEX", "RS-REFUSAL"} <= owners
    assert not owners & {"RS-ENV-FILL", "RS-USAGE-TERMINAL", "RS-ARGS-JOIN"}
    failure = ConformanceFailure(
        ("RS-TEXT-JOIN", "RS-USAGE-TERMINAL"),
        "differs",
        differences=[Difference("/output/0/content/0/text", "a", "")],
    )
    assert failure.implicated == ("RS-TEXT-JOIN",)


def test_arguments_and_call_ids_have_their_own_rules() -> None:
    assert {"RS-ARGS-JOIN", "RS-ARGS-RAW"} <= rules_at("/output/2/arguments")
    assert "RS-CALL-IDS" in rules_at("/output/2/call_id")
    assert "RS-CALL-IDS" in rules_at("/output/2/id")
    assert "RS-ARGS-JOIN" not in rules_at("/output/2/call_id")


def test_an_items_status_and_the_responses_status_are_told_apart() -> None:
    assert "RS-RECOVER-STATUS" in rules_at("/output/0/status")
    assert "RS-RECOVER-STATUS" not in rules_at("/status")
    assert {"RS-TERMINAL-EVENTS", "RS-FAILED", "RS-INCOMPLETE"} <= rules_at("/status")


def test_usage_error_and_incomplete_details_belong_to_their_rules() -> None:
    assert "RS-USAGE-TERMINAL" in rules_at("/usage/input_tokens_details/cached_tokens")
    assert {"RS-FAILED", "RS-ERROR-EVENT"} <= rules_at("/error/code")
    assert "RS-INCOMPLETE" in rules_at("/incomplete_details/reason")


def test_annotations_summary_and_unknown_keys_inside_items() -> None:
    assert "RS-ANNOTATIONS" in rules_at("/output/0/content/0/annotations/1/url")
    assert "RS-REASONING-SUMMARY" in rules_at("/output/1/summary/0/text")
    assert "RS-UNKNOWN-KEYS" in rules_at("/output/1/x_vendor")
    assert "RS-ITEM-DONE-REPLACES" in rules_at("/output/1/encrypted_content")


def test_a_top_level_place_the_table_does_not_name_is_the_terminals_as_sent() -> None:
    assert rules_at("/service_tier") == OUTSIDE_THE_SHAPE
    assert (
        rules_at("/x/0/y")
        == OUTSIDE_THE_SHAPE
        == {
            "RS-TERMINAL-BASE",
            "RS-ENV-TERMINAL",
            "RS-ENV-FILL",
            "RS-TERMINAL-REPEAT",
            "RS-UNKNOWN-KEYS",
        }
    )


def test_the_whole_response_is_charged_to_no_rule() -> None:
    assert rules_at("") == frozenset()
