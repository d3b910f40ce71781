"""Every RS rule of responses-fold.md has at least one hand-written example, and every
example names rules of that dialect.

Read as `tests/test_every_rule_has_an_example.py` reads the chat examples: the example
modules are imported and each test function's marks read, parametrized cases included.
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest

from refold.reference.responses import RULES

_SUITES = Path(__file__).resolve().parent.parent / "suites" / "responses"
_EXAMPLE_MODULES = sorted(path.stem for path in
                          _SUITES.glob("test_responses_rule_examples_*.py"))


def _examples() -> dict[str, list[str]]:
    examples: dict[str, list[str]] = {}
    for module_name in _EXAMPLE_MODULES:
        module = importlib.import_module(f"refold.suites.responses.{module_name}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if not name.startswith("test_") or function.__module__ != module.__name__:
                continue
            marks = getattr(function, "pytestmark", [])
            own = [r for mark in marks if mark.name == "rule" for r in mark.args]
            cases = [case for mark in marks if mark.name == "parametrize"
                     for case in mark.args[1]]
            examples[f"{module_name}::{name}"] = own + [
                r for case in cases for mark in getattr(case, "marks", ())
                if mark.name == "rule" for r in mark.args]
    return examples


@pytest.fixture(scope="module")
def examples() -> dict[str, list[str]]:
    found = _examples()
    assert len(_EXAMPLE_MODULES) >= 10, f"example modules found: {_EXAMPLE_MODULES}"
    return found


def test_every_rs_rule_has_at_least_one_example(examples: dict[str, list[str]]) -> None:
    covered = {rule_id for rules in examples.values() for rule_id in rules}
    missing = [rule_id for rule_id in RULES if rule_id not in covered]
    assert not missing, f"RS rules without a hand-written example: {missing}"


def test_every_example_is_marked_with_rules_of_the_dialect(
    examples: dict[str, list[str]],
) -> None:
    unmarked = [test for test, rules in examples.items() if not rules]
    assert not unmarked, f"examples without a @rule mark: {unmarked}"
    foreign = {test: rules for test, rules in examples.items()
               if any(r not in RULES for r in rules)}
    assert not foreign, f"examples marked with ids responses-fold.md does not have: {foreign}"
