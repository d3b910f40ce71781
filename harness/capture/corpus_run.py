"""A corpus in a run (`pytest --corpus DIR`, `refold check --corpus DIR`).

The corpus suite (`refold.suites.corpus`) holds one property over a `corpus_case`; this
module gives pytest its cases: each case file one test, with the case's rule marks, so a
failure is charged to rules as in every suite, and a case of another dialect than the
run's is left out and counted like another dialect's suite.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..run.locations import suites_dir
from ..run.marks import rule
from .corpus import Case, case_rules

__all__ = ["CORPUS_FIXTURE", "corpus_parameters", "corpus_suite", "is_corpus_suite"]

CORPUS_FIXTURE = "corpus_case"


def corpus_suite() -> Path:
    """The folder of the installed corpus suite."""
    return suites_dir() / "corpus"


def is_corpus_suite(path: Path) -> bool:
    """Whether `path` is the corpus suite's folder or one of its files."""
    try:
        path.resolve().relative_to(corpus_suite())
    except (LookupError, ValueError):
        return False
    return True


def _case_id(case: Case, root: Path) -> str:
    if case.path is None:
        return case.name
    try:
        return case.path.relative_to(root).with_suffix("").as_posix()
    except ValueError:
        return case.name


def corpus_parameters(cases: list[Case], root: str | Path) -> list[Any]:
    """One `pytest.param` per case, marked with its rules."""
    return [
        pytest.param(case, marks=rule(*case_rules(case)), id=_case_id(case, Path(root)))
        for case in cases
    ]
