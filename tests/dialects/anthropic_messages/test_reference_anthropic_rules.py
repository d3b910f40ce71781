"""The AM rules registry matches the spec, and every rule has a hand-written example.

`SPEC_RULES` is a copy of the spec's rule ids and features (docs/spec/anthropic-fold.md),
in the spec's order, kept here because the mutation run copies test_reference_* files to
a scratch dir without docs/; tests/dialects/anthropic_messages/test_anthropic_spec_tables.py checks
this copy against the spec's own tables.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from refold.reference.anthropic import FEATURES, RULES
from refold.reference.chat import RULES as CHAT_RULES

SPEC_RULES = [
    ("AM-START-BASE", "text"),
    ("AM-START-CONTENT", "text"),
    ("AM-START-ONCE", "text"),
    ("AM-TYPE-ROLE", "text"),
    ("AM-BEFORE-START", "text"),
    ("AM-BLOCK-OPEN", "text"),
    ("AM-BLOCK-ORDER", "text"),
    ("AM-BLOCK-REOPEN", "text"),
    ("AM-DELTA-ROUTE", "text"),
    ("AM-DELTA-MATCH", "text"),
    ("AM-BLOCK-STOP", "text"),
    ("AM-TEXT-JOIN", "text"),
    ("AM-CITATIONS-APPEND", "citations"),
    ("AM-TOOL-JOIN", "tool_use"),
    ("AM-TOOL-NO-DELTA", "tool_use"),
    ("AM-TOOL-INVALID", "tool_use"),
    ("AM-TOOL-IDENTITY", "tool_use"),
    ("AM-SERVER-TOOL", "server_tools"),
    ("AM-RESULT-AS-SENT", "server_tools"),
    ("AM-THINK-JOIN", "thinking"),
    ("AM-THINK-SIGNATURE", "thinking"),
    ("AM-REDACTED", "thinking"),
    ("AM-STOP-REASON", "text"),
    ("AM-STOP-SEQUENCE", "text"),
    ("AM-STOP-DETAILS", "stop_details"),
    ("AM-CONTAINER", "stop_details"),
    ("AM-USAGE-BASE", "usage"),
    ("AM-USAGE-REPLACE", "usage"),
    ("AM-USAGE-NEVER-SUM", "usage"),
    ("AM-USAGE-ABSENT", "usage"),
    ("AM-LIFE-EMPTY", "lifecycle"),
    ("AM-LIFE-SNAPSHOT", "lifecycle"),
    ("AM-LIFE-FINISHED", "lifecycle"),
    ("AM-LIFE-ERROR", "lifecycle"),
    ("AM-LIFE-TRUNCATED", "lifecycle"),
    ("AM-LIFE-AFTER-STOP", "lifecycle"),
    ("AM-PING", "robustness"),
    ("AM-UNKNOWN-EVENT", "robustness"),
    ("AM-UNKNOWN-DELTA", "robustness"),
    ("AM-UNKNOWN-BLOCK", "robustness"),
    ("AM-UNKNOWN-KEYS", "robustness"),
    ("AM-ROB-WRONG-TYPE", "robustness"),
    ("AM-ROB-NOT-OBJECT", "robustness"),
    ("AM-SSE-TYPE", "sse"),
    ("AM-SSE-EMPTY", "sse"),
]
SPEC_FEATURES = [
    "text",
    "tool_use",
    "server_tools",
    "thinking",
    "citations",
    "stop_details",
    "usage",
    "robustness",
    "lifecycle",
    "sse",
]


def _example_tables() -> dict[str, dict[str, tuple[str, ...]]]:
    tables = {}
    for path in sorted(Path(__file__).parent.glob("test_reference_anthropic_*.py")):
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


def test_statements_are_one_line_and_ids_never_collide_with_chat_rules() -> None:
    assert all(r.statement and "\n" not in r.statement for r in RULES.values())
    assert not RULES.keys() & CHAT_RULES.keys()


def test_every_registry_rule_has_a_hand_written_example() -> None:
    checked = {
        rule_id for table in _example_tables().values() for ids in table.values() for rule_id in ids
    }
    assert checked <= RULES.keys(), f"unknown ids in RULES_CHECKED: {checked - RULES.keys()}"
    assert RULES.keys() - checked == set(), "rules without an example"
