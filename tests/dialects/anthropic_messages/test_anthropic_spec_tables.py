"""The AM rules registry matches the rule tables of the spec itself.

Parses docs/spec/anthropic-fold.md (a verbatim copy of the shared spec): every `| AM-... |`
row, its feature from the row's feature column or else from its section's
"(feature `x`)" heading. Kept apart from the test_reference_* files: the mutation run
copies those to a scratch dir where docs/ does not exist.
"""

from __future__ import annotations

import re
from pathlib import Path

from refold.reference.anthropic import FEATURES, RULES

SPEC = Path(__file__).resolve().parents[3] / "docs" / "spec" / "anthropic-fold.md"


def _spec_rules() -> list[tuple[str, str]]:
    rules: list[tuple[str, str]] = []
    section_feature = ""
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"## .*\(features? `(\w+)`", line)
        if heading:
            section_feature = heading.group(1)
        row = re.match(r"\| (AM-[A-Z-]+) \|(?: (\w+) \|)?", line)
        if row:
            rules.append((row.group(1), row.group(2) or section_feature))
    return rules


def test_every_spec_rule_is_in_the_registry_and_vice_versa() -> None:
    spec = _spec_rules()
    assert len(spec) == len({rule_id for rule_id, _ in spec}) == 45
    assert [(r.id, r.feature) for r in RULES.values()] == spec


def test_the_spec_feature_vocabulary_is_the_registry_features() -> None:
    text = SPEC.read_text(encoding="utf-8")
    vocabulary = text.split("## Features (closed vocabulary)", 1)[1].split("##", 1)[0]
    names = re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", vocabulary))
    assert names == list(FEATURES)
