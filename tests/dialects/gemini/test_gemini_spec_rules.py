"""The GM rules registry matches the spec, and every rule has a hand-written example.

The spec's tables (docs/spec/gemini-fold.md) are the source: each rule row names its id and,
in tables with a feature column, its feature; a table without one takes the feature its
section heading names.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from refold.reference.gemini import FEATURES, RULES

_HERE = Path(__file__).resolve().parent
_SPEC = _HERE.parents[2] / "docs" / "spec" / "gemini-fold.md"
_ROW = re.compile(r"^\| (GM-[A-Z0-9-]+) \|(?: ([a-z_]+) \|)?", re.MULTILINE)
_HEADING = re.compile(r"^## .*\(feature `([a-z_]+)`\)", re.MULTILINE)

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_the_registry_lists_the_spec_rules_in_order_with_their_features": tuple(RULES),
}


def _spec_rules() -> list[tuple[str, str]]:
    text = _SPEC.read_text(encoding="utf-8")
    rules: list[tuple[str, str]] = []
    for section in re.split(r"^(?=## )", text, flags=re.MULTILINE):
        heading = _HEADING.search(section)
        for rule_id, feature in _ROW.findall(section):
            rules.append((rule_id, feature or (heading.group(1) if heading else "")))
    return rules


def test_the_registry_lists_the_spec_rules_in_order_with_their_features() -> None:
    assert _spec_rules() == [(r.id, r.feature) for r in RULES.values()]
    assert {r.feature for r in RULES.values()} == set(FEATURES)
    assert all(r.id.startswith("GM-") and r.statement.endswith(".") for r in RULES.values())


def test_the_feature_vocabulary_is_the_specs() -> None:
    text = _SPEC.read_text(encoding="utf-8").split("## Features (closed vocabulary)")[1]
    named = re.findall(r"`([a-z_]+)`", text.split("##")[0])
    assert tuple(named) == FEATURES


def test_every_rule_has_a_hand_written_example() -> None:
    checked: set[str] = set()
    for path in sorted(_HERE.glob("test_reference_gemini_*.py")):
        module = importlib.import_module(path.stem)
        tests = {name for name in vars(module) if name.startswith("test_")}
        table = getattr(module, "RULES_CHECKED", {})
        assert set(table) <= tests, f"{path.name}: RULES_CHECKED names a missing test"
        checked.update(rule for rules in table.values() for rule in rules)
    assert checked <= RULES.keys()
    assert RULES.keys() - checked == set()
