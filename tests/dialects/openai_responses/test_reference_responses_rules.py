"""The RS rules registry matches the spec, and every rule has a hand-written example.

`SPEC_RULES` is a copy of the spec's rule ids and features (docs/spec/responses-fold.md),
in the spec's order, kept here because the mutation run copies test_reference_* files to
a scratch dir without docs/; tests/dialects/openai_responses/test_responses_spec_tables.py checks
this copy against the spec's own tables.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from refold.reference.anthropic import RULES as AM_RULES
from refold.reference.chat import RULES as CHAT_RULES
from refold.reference.responses import FEATURES, RULES

SPEC_RULES = [
    ("RS-TERMINAL-BASE", "text"),
    ("RS-ENV-TERMINAL", "text"),
    ("RS-ENV-FILL", "text"),
    ("RS-OBJECT", "text"),
    ("RS-OUTPUT-TERMINAL", "text"),
    ("RS-OUTPUT-RECOVER", "text"),
    ("RS-OUTPUT-ORDER", "text"),
    ("RS-KEY-OUTPUT-INDEX", "text"),
    ("RS-ROUTE", "text"),
    ("RS-ITEM-DONE-REPLACES", "text"),
    ("RS-DONE-REPLACES", "text"),
    ("RS-RECOVER-FROM-DELTAS", "text"),
    ("RS-RECOVER-STATUS", "text"),
    ("RS-ORPHAN", "text"),
    ("RS-READD", "text"),
    ("RS-KIND-MATCH", "text"),
    ("RS-CONTENT-INDEX", "text"),
    ("RS-TEXT-JOIN", "text"),
    ("RS-REFUSAL", "refusal"),
    ("RS-REASONING-SUMMARY", "reasoning"),
    ("RS-REASONING-TEXT", "reasoning"),
    ("RS-ANNOTATIONS", "annotations"),
    ("RS-HOSTED-ITEMS", "text"),
    ("RS-CALL-IDS", "tool_calls"),
    ("RS-ARGS-JOIN", "tool_calls"),
    ("RS-ARGS-RAW", "tool_calls"),
    ("RS-USAGE-TERMINAL", "usage"),
    ("RS-TERMINAL-EVENTS", "text"),
    ("RS-INCOMPLETE", "text"),
    ("RS-FAILED", "text"),
    ("RS-ERROR-EVENT", "text"),
    ("RS-TERMINAL-REPEAT", "text"),
    ("RS-SEQ-ARRIVAL", "text"),
    ("RS-UNKNOWN-KEYS", "robustness"),
    ("RS-KEEPALIVE", "robustness"),
    ("RS-WRONG-TYPE", "robustness"),
    ("RS-NOT-OBJECT", "robustness"),
    ("RS-NULL-ITEM", "robustness"),
    ("LIFE-RS-EMPTY", "lifecycle"),
    ("LIFE-RS-SNAPSHOT", "lifecycle"),
    ("LIFE-RS-FINISHED", "lifecycle"),
    ("LIFE-RS-AFTER", "lifecycle"),
]
SPEC_FEATURES = [
    "text",
    "tool_calls",
    "refusal",
    "reasoning",
    "annotations",
    "usage",
    "robustness",
    "lifecycle",
    "sse",
    "events",
]


def _example_tables() -> dict[str, dict[str, tuple[str, ...]]]:
    tables = {}
    for path in sorted(Path(__file__).parent.glob("test_reference_responses_*.py")):
        module = importlib.import_module(path.stem)
        if hasattr(module, "RULES_CHECKED"):
            tables[path.stem] = {
                name: tuple(ids)
                for name, ids in module.RULES_CHECKED.items()
                if callable(getattr(module, name, None))
            }
            assert len(tables[path.stem]) == len(module.RULES_CHECKED), (
                f"{path.name}: RULES_CHECKED names a test that does not exist"
            )
    return tables


def test_the_registry_holds_exactly_the_spec_rules_in_order() -> None:
    assert [(r.id, r.feature) for r in RULES.values()] == SPEC_RULES
    assert all(key == r.id for key, r in RULES.items())


def test_features_are_the_spec_vocabulary_and_every_rule_uses_one() -> None:
    assert list(FEATURES) == SPEC_FEATURES
    assert {r.feature for r in RULES.values()} <= set(FEATURES)


def test_statements_are_one_line_and_ids_never_collide_with_other_dialects() -> None:
    assert all(r.statement and "\n" not in r.statement for r in RULES.values())
    assert not RULES.keys() & CHAT_RULES.keys() and not RULES.keys() & AM_RULES.keys()


def test_every_registry_rule_has_a_hand_written_example() -> None:
    checked = {
        rule_id for table in _example_tables().values() for ids in table.values() for rule_id in ids
    }
    assert checked <= RULES.keys(), f"unknown ids in RULES_CHECKED: {checked - RULES.keys()}"
    assert RULES.keys() - checked == set(), "rules without an example"
