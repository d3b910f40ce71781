"""The streams the chat rule examples fold, gathered by running each example against the
reference through a target that records what it is given (for tests of their shapes)."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from typing import Any

import pytest

import refold.suites.openai_chat
from refold.reference import JSON
from refold.run.checks import Check
from refold.targets import load_target

__all__ = ["RuleExample", "rule_examples"]


class _RecordingAccumulator:
    def __init__(self, inner: Any, streams: list[list[JSON]]) -> None:
        self._inner, self._chunks = inner, []
        streams.append(self._chunks)

    def add(self, chunk: JSON) -> None:
        self._chunks.append(chunk)
        self._inner.add(chunk)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _RecordingTarget:
    """The reference, recording every stream it folds or accumulates."""

    def __init__(self) -> None:
        self._inner = load_target("reference")
        self.streams: list[list[JSON]] = []

    def fold(self, chunks: list[JSON]) -> Any:
        self.streams.append(list(chunks))
        return self._inner.fold(chunks)

    def accumulator(self) -> _RecordingAccumulator:
        return _RecordingAccumulator(self._inner.accumulator(), self.streams)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class RuleExample:
    """One rule example: its name, its rules and the streams it folded."""

    def __init__(self, name: str, rules: tuple[str, ...], streams: list[list[JSON]]) -> None:
        self.name, self.rules, self.streams = name, rules, streams


def _rules(function: Any) -> tuple[str, ...]:
    marks = getattr(function, "pytestmark", [])
    return tuple(r for mark in marks if mark.name == "rule" for r in mark.args)


def _examples() -> Iterator[tuple[str, Any]]:
    for info in pkgutil.iter_modules(refold.suites.openai_chat.__path__):
        if info.name.startswith("test_rule_examples_") or info.name == "test_quirk_streams":
            module = importlib.import_module(f"refold.suites.openai_chat.{info.name}")
            for name, function in inspect.getmembers(module, inspect.isfunction):
                if (
                    name.startswith("test_")
                    and _rules(function)
                    and list(inspect.signature(function).parameters) == ["check"]
                ):
                    yield f"{info.name}::{name}", function


def rule_examples() -> list[RuleExample]:
    """Every chat rule example taking only `check`, run against the recording reference."""
    found = []
    for name, function in _examples():
        target = _RecordingTarget()
        check = Check(target)  # type: ignore[arg-type]
        check.rules = _rules(function)
        with contextlib.suppress(pytest.skip.Exception):  # a feature the target lacks
            function(check)
        found.append(RuleExample(name, check.rules, target.streams))
    return found
