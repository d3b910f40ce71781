"""A fold-only Anthropic target (a whole-list `fold`, no accumulator, so no `lifecycle`) is
not failed by a rule example that needs the incremental interface: the example skips, as
the property tests of the same rule do (the SDK targets langchain-anthropic and
litellm-anthropic are such targets)."""

from __future__ import annotations

import pytest

from refold.reference import anthropic
from refold.run.checks import Check
from refold.suites.anthropic import test_anthropic_rule_examples_robustness as examples
from refold.targets.python import from_object


def test_a_refusal_example_skips_for_a_target_without_an_accumulator() -> None:
    target = from_object(
        {
            "name": "fold_only",
            "dialect": "anthropic-messages",
            "fold": anthropic.fold,
            "features": sorted(set(anthropic.FEATURES) - {"lifecycle", "sse"}),
        },
        name="fold_only",
    )
    check = Check(target)
    check.rules = ("AM-ROB-NOT-OBJECT",)
    with pytest.raises(pytest.skip.Exception, match="lifecycle"):
        examples.test_a_refused_event_leaves_the_fold_unchanged(check)
