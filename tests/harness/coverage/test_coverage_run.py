"""`refold coverage`: per-test contexts carry the rule ids, and coverage.py's JSON becomes
the refold-coverage document (lines by rule, percentages, paths relative to the package)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from refold.run.coverage import FORMAT, context_name, coverage_document

TINY_TEST = """
import pytest
import tinypkg

@pytest.mark.rule("TEXT-JOIN", "ENV-ID")
def test_join():
    assert tinypkg.join(["a", "b"]) == "ab"

def test_unmarked():
    assert tinypkg.other() == 1
"""
HYPOTHESIS_TEST = """
import pytest
from hypothesis import given, settings, strategies as st
import tinypkg

@pytest.mark.rule("TEXT-JOIN")
@settings(max_examples=5)
@given(st.lists(st.text(max_size=2), max_size=2))
def test_join(parts):
    assert tinypkg.join(parts) == "".join(parts)
"""
TINY_PACKAGE = """
def join(parts):
    return "".join(parts)


def other():
    return 1
"""


def test_a_context_names_the_rules_then_the_test() -> None:
    assert (
        context_name(["TEXT-JOIN", "ENV-ID"], "suites/t.py::test_x")
        == "TEXT-JOIN,ENV-ID|suites/t.py::test_x"
    )


def measure(folder: Path, test_source: str) -> dict[str, Any]:
    """Run `test_source` under `coverage run` with the context plugin; coverage's JSON."""
    (folder / "tinypkg").mkdir()
    (folder / "tinypkg" / "__init__.py").write_text(TINY_PACKAGE)
    (folder / "test_tiny.py").write_text(test_source)
    (folder / ".coveragerc").write_text("[run]\nbranch = True\nsource_pkgs = tinypkg\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "coverage",
            "run",
            "-m",
            "pytest",
            "test_tiny.py",
            "-p",
            "refold.run.coverage",
            "-p",
            "no:cacheprovider",
            "-q",
            "--rootdir",
            str(folder),
        ],
        cwd=folder,
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [sys.executable, "-m", "coverage", "json", "--show-contexts", "-o", "cov.json"],
        cwd=folder,
        check=True,
        capture_output=True,
    )
    raw: dict[str, Any] = json.loads((folder / "cov.json").read_text())
    return raw


def test_lines_run_by_a_marked_test_are_charged_to_its_rules(tmp_path: Path) -> None:
    raw = measure(tmp_path, TINY_TEST)
    document = coverage_document(
        raw, target="tinypkg", package="tinypkg", root=tmp_path, pytest_status=0, profile="ci"
    )
    assert document["format"] == FORMAT
    rules_by_line = document["files"]["tinypkg/__init__.py"]["rules_by_line"]
    assert rules_by_line == {"3": ["ENV-ID", "TEXT-JOIN"]}  # join's body; other() is unmarked
    assert document["lines_by_rule"] == {
        "ENV-ID": {"tinypkg/__init__.py": [3]},
        "TEXT-JOIN": {"tinypkg/__init__.py": [3]},
    }
    assert document["totals"]["lines_percent"] == 100.0


def test_a_hypothesis_test_charges_its_lines_to_its_rules_not_to_the_runner(tmp_path: Path) -> None:
    raw = measure(tmp_path, HYPOTHESIS_TEST)
    line_contexts = raw["files"]["tinypkg/__init__.py"]["contexts"]["3"]
    assert line_contexts == ["TEXT-JOIN|test_tiny.py::test_join"]
