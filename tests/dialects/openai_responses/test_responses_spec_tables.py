"""The RS rules registry matches the rule tables of the spec itself.

Parses docs/spec/responses-fold.md (a verbatim copy of the shared spec): every
`| RS-... |` and `| LIFE-RS-... |` row, its feature from the row's feature column or else
from its section's "(feature `x`)" heading; "Terminal outcomes (feature `lifecycle` for
snapshots, `text` otherwise)" states the rules' own feature last. Kept apart from the
test_reference_* files: the mutation run copies those to a scratch dir where docs/ does
not exist.
"""

from __future__ import annotations

import re
from pathlib import Path

from refold.reference.responses import FEATURES, RULES

SPEC = Path(__file__).resolve().parents[3] / "docs" / "spec" / "responses-fold.md"


def _section_feature(heading: str) -> str:
    otherwise = re.search(r"`(\w+)` otherwise", heading)
    if otherwise:
        return otherwise.group(1)
    first = re.search(r"\(features? `(\w+)`", heading)
    return first.group(1) if first else ""


def _spec_rules() -> list[tuple[str, str]]:
    rules: list[tuple[str, str]] = []
    section_feature = ""
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section_feature = _section_feature(line)
        row = re.match(r"\| ((?:LIFE-)?RS-[A-Z-]+) \|(?: (\w+) \|)?", line)
        if row:
            rules.append((row.group(1), row.group(2) or section_feature))
    return rules


def test_every_spec_rule_is_in_the_registry_and_vice_versa() -> None:
    spec = _spec_rules()
    assert len(spec) == len({rule_id for rule_id, _ in spec}) == 42
    assert [(r.id, r.feature) for r in RULES.values()] == spec


def test_the_spec_feature_vocabulary_is_the_registry_features() -> None:
    text = SPEC.read_text(encoding="utf-8")
    vocabulary = text.split("## Features", 1)[1].split("##", 1)[0]
    names = re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", vocabulary))
    assert names == list(FEATURES)
