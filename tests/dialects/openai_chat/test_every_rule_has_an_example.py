"""Every rule of the spec has at least one hand-written example, and every example names
rules that exist.

The example modules are imported and each test function's marks read, including the
marks of its parametrized cases (each quirk stream is one case with its own rules).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from refold.reference.chat import RULES

_SUITES = Path(__file__).resolve().parents[3] / "suites" / "openai_chat"
_EXAMPLE_MODULES = sorted(
    path.stem
    for path in [*_SUITES.glob("test_rule_examples_*.py"), _SUITES / "test_quirk_streams.py"]
)


def _rule_ids(marks: Any) -> list[str]:
    return [rule_id for mark in marks if mark.name == "rule" for rule_id in mark.args]


def _cases(name: str, function: Callable[..., Any]) -> Iterator[tuple[str, list[str]]]:
    """Each test the function generates, with the rule ids it is marked with."""
    marks = getattr(function, "pytestmark", [])
    own = _rule_ids(marks)
    params = [case for mark in marks if mark.name == "parametrize" for case in mark.args[1]]
    if not params:
        yield name, own
    for number, case in enumerate(params):
        case_id = getattr(case, "id", None) or str(number)
        yield f"{name}[{case_id}]", own + _rule_ids(getattr(case, "marks", ()))


def _examples() -> dict[str, list[str]]:
    examples: dict[str, list[str]] = {}
    for module_name in _EXAMPLE_MODULES:
        module = importlib.import_module(f"refold.suites.openai_chat.{module_name}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("test_") and function.__module__ == module.__name__:
                for case, rules in _cases(f"{module_name}::{name}", function):
                    examples[case] = rules
    return examples


@pytest.fixture(scope="module")
def examples() -> dict[str, list[str]]:
    found = _examples()
    assert found, f"no example tests found in {_SUITES}"
    return found


def test_the_example_modules_are_the_ones_per_area() -> None:
    assert "test_quirk_streams" in _EXAMPLE_MODULES
    assert len(_EXAMPLE_MODULES) >= 13, f"example modules found: {_EXAMPLE_MODULES}"


def test_every_rule_id_has_at_least_one_example(examples: dict[str, list[str]]) -> None:
    covered = {rule_id for rules in examples.values() for rule_id in rules}
    missing = [rule_id for rule_id in RULES if rule_id not in covered]
    assert not missing, f"rules without a hand-written example: {missing}"


def test_every_example_is_marked_with_a_rule(examples: dict[str, list[str]]) -> None:
    unmarked = [test for test, rules in examples.items() if not rules]
    assert not unmarked, f"examples without a @rule mark: {unmarked}"


def test_every_marked_rule_id_exists(examples: dict[str, list[str]]) -> None:
    unknown = {
        test: [r for r in rules if r not in RULES]
        for test, rules in examples.items()
        if any(r not in RULES for r in rules)
    }
    assert not unknown, f"examples marked with rule ids the spec does not have: {unknown}"


def test_the_quirk_streams_are_counted_case_by_case(examples: dict[str, list[str]]) -> None:
    # guards the reader above: parametrized marks must not be lost
    quirk = examples.get(
        "test_quirk_streams::test_a_quirk_stream_folds_as_the_spec_decides"
        "[resend_full_args_in_final]"
    )
    assert quirk == ["TOOL-3-RESEND"], f"read {quirk!r} for the Q5 quirk stream"
