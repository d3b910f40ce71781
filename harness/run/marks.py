"""The `rule` mark: every conformance test names the rule ids it checks.

    @rule("TOOL-2-NEW-ID")
    def test_a_new_id_on_an_occupied_index_starts_a_new_call(check): ...

The mark carries the ids and, looked up in the registries, their features, so a typo in a
rule id fails at import time rather than silently never running. An id is a rule of one
dialect (`refold.dialects`: a spec rule, or a wire rule of the chat `sse` suite); a
test's rules are all of one dialect, which is how the plugin knows whose test it is.
"""

from __future__ import annotations

import pytest

from ..dialects import EVERY_RULE, Dialect, dialect_of_rule

__all__ = ["dialect_of_item", "rule", "rules_of_item"]


def rule(*rule_ids: str) -> pytest.MarkDecorator:
    """Mark a test with the spec or wire rules it checks (at least one)."""
    if not rule_ids:
        raise TypeError("rule() needs at least one rule id")
    unknown = [r for r in rule_ids if r not in EVERY_RULE]
    if unknown:
        raise KeyError(f"unknown rule ids {unknown}: no dialect has them")
    owners = {dialect_of_rule(r) for r in rule_ids}
    if len(owners) > 1:
        raise TypeError(
            f"rule() mixes the rules of {sorted(d.name for d in owners if d)}: a test "
            f"checks one dialect"
        )
    features = tuple(dict.fromkeys(EVERY_RULE[r].feature for r in rule_ids))
    return pytest.mark.rule(*rule_ids, features=features)


def rules_of_item(item: pytest.Item) -> tuple[str, ...]:
    """The rule ids a collected test is marked with, in order, each once."""
    ids: list[str] = []
    for mark in item.iter_markers("rule"):
        for rule_id in mark.args:
            if rule_id not in EVERY_RULE:
                raise pytest.UsageError(f"{item.nodeid} is marked with unknown rule {rule_id!r}")
            if rule_id not in ids:
                ids.append(rule_id)
    return tuple(ids)


def dialect_of_item(item: pytest.Item) -> Dialect | None:
    """The dialect a collected test checks (that of its rules), None when unmarked."""
    rules = rules_of_item(item)
    return dialect_of_rule(rules[0]) if rules else None
