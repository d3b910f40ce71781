"""The `rule` mark: every conformance test names the rule ids it checks.

    @rule("TOOL-2-NEW-ID")
    def test_a_new_id_on_an_occupied_index_starts_a_new_call(check): ...

The mark carries the ids and, looked up in the registries, their features, so a typo in a
rule id fails at import time rather than silently never running. An id is a spec rule
(`refold.reference.RULES`) or a wire rule of the `sse` suite (`SSE_RULES`).
"""

from __future__ import annotations

import pytest

from refold.reference import ALL_RULES, lookup_any_rule

__all__ = ["rule", "rules_of_item"]


def rule(*rule_ids: str) -> pytest.MarkDecorator:
    """Mark a test with the spec or wire rules it checks (at least one)."""
    if not rule_ids:
        raise TypeError("rule() needs at least one rule id")
    features = tuple(dict.fromkeys(lookup_any_rule(r).feature for r in rule_ids))
    return pytest.mark.rule(*rule_ids, features=features)


def rules_of_item(item: pytest.Item) -> tuple[str, ...]:
    """The rule ids a collected test is marked with, in order, each once."""
    ids: list[str] = []
    for mark in item.iter_markers("rule"):
        for rule_id in mark.args:
            if rule_id not in ALL_RULES:
                raise pytest.UsageError(f"{item.nodeid} is marked with unknown rule {rule_id!r}")
            if rule_id not in ids:
                ids.append(rule_id)
    return tuple(ids)
