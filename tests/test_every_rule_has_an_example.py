"""Every rule of the spec has at least one hand-written example, and every example names
rules that exist. The examples are collected the way pytest collects them, so marks on
parametrized cases (the quirk streams) count too."""

from __future__ import annotations

from pathlib import Path

import pytest

from refold.reference import RULES

_SUITES = Path(__file__).resolve().parent.parent / "suites"
_EXAMPLE_FILES = sorted([*_SUITES.glob("test_rule_examples_*.py"),
                         _SUITES / "test_quirk_streams.py"])


class _MarkedExamples:
    """A pytest plugin that records, per collected example, the rule ids it is marked with."""

    def __init__(self) -> None:
        self.rules_by_test: dict[str, list[str]] = {}

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        for item in session.items:
            self.rules_by_test[item.nodeid] = [
                rule_id for mark in item.iter_markers("rule") for rule_id in mark.args]


@pytest.fixture(scope="module")
def examples() -> dict[str, list[str]]:
    collector = _MarkedExamples()
    code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider",
                        *map(str, _EXAMPLE_FILES)], plugins=[collector])
    assert code == pytest.ExitCode.OK, f"collecting the examples failed with exit code {code}"
    return collector.rules_by_test


def test_the_example_files_exist() -> None:
    missing = [path.name for path in _EXAMPLE_FILES if not path.is_file()]
    assert not missing, f"example files missing from {_SUITES}: {missing}"


def test_every_rule_id_has_at_least_one_example(examples: dict[str, list[str]]) -> None:
    covered = {rule_id for rules in examples.values() for rule_id in rules}
    missing = [rule_id for rule_id in RULES if rule_id not in covered]
    assert not missing, f"rules without a hand-written example: {missing}"


def test_every_example_is_marked_with_a_rule(examples: dict[str, list[str]]) -> None:
    unmarked = [test for test, rules in examples.items() if not rules]
    assert not unmarked, f"examples without a @rule mark: {unmarked}"


def test_every_marked_rule_id_exists(examples: dict[str, list[str]]) -> None:
    unknown = {test: [r for r in rules if r not in RULES]
               for test, rules in examples.items() if any(r not in RULES for r in rules)}
    assert not unknown, f"examples marked with rule ids the spec does not have: {unknown}"
