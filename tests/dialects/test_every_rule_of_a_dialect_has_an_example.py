"""Every rule of every registered dialect's contract (but chat's) has at least one
hand-written example, and every example names rules of its own contract only.

Read as `tests/dialects/openai_chat/test_every_rule_has_an_example.py` reads the chat examples: the
example modules (`suites/<suite>/test_<suite>_rule_examples_*.py`) are imported and each test
function's marks read, parametrized cases included.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from pathlib import Path

import pytest

from refold.dialects import DIALECTS

_SUITES = Path(__file__).resolve().parents[2] / "suites"


@dataclass(frozen=True)
class _Contract:
    suite: str
    """The suites package and the prefix of its example modules."""
    rules: frozenset[str]
    document: str


_CONTRACTS = {
    name: _Contract(dialect.suites, frozenset(dialect.spec_rules), dialect.spec)
    for name, dialect in DIALECTS.items()
    if name != "openai-chat"  # its examples have a layout of their own, read by its test
}
"""Each registered dialect's contract, from the registry: adding a dialect adds its row."""


def _examples(contract: _Contract) -> dict[str, list[str]]:
    # its own folder, and its folder inside another dialect's suites (the events examples
    # written in a source dialect's streams: suites/gemini/events/)
    pattern = f"test_{contract.suite}_rule_examples_*.py"
    paths = [
        *(_SUITES / contract.suite).glob(pattern),
        *_SUITES.glob(f"*/{contract.suite}/{pattern}"),
    ]
    modules = sorted(".".join(path.relative_to(_SUITES).with_suffix("").parts) for path in paths)
    assert len(modules) >= 10, f"example modules found: {modules}"
    examples: dict[str, list[str]] = {}
    for dotted in modules:
        module_name = dotted.rpartition(".")[2]
        module = importlib.import_module(f"refold.suites.{dotted}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if not name.startswith("test_") or function.__module__ != module.__name__:
                continue
            marks = getattr(function, "pytestmark", [])
            own = [r for mark in marks if mark.name == "rule" for r in mark.args]
            cases = [case for mark in marks if mark.name == "parametrize" for case in mark.args[1]]
            examples[f"{module_name}::{name}"] = own + [
                r
                for case in cases
                for mark in getattr(case, "marks", ())
                if mark.name == "rule"
                for r in mark.args
            ]
    return examples


@pytest.mark.parametrize("dialect", sorted(_CONTRACTS))
def test_every_rule_has_at_least_one_example(dialect: str) -> None:
    contract = _CONTRACTS[dialect]
    covered = {rule_id for rules in _examples(contract).values() for rule_id in rules}
    missing = [rule_id for rule_id in sorted(contract.rules) if rule_id not in covered]
    assert not missing, f"{dialect} rules without a hand-written example: {missing}"


@pytest.mark.parametrize("dialect", sorted(_CONTRACTS))
def test_every_example_is_marked_with_rules_of_its_contract(dialect: str) -> None:
    contract = _CONTRACTS[dialect]
    examples = _examples(contract)
    unmarked = [test for test, rules in examples.items() if not rules]
    assert not unmarked, f"examples without a @rule mark: {unmarked}"
    foreign = {
        test: rules
        for test, rules in examples.items()
        if any(r not in contract.rules for r in rules)
    }
    assert not foreign, f"examples marked with ids {contract.document} does not have: {foreign}"
