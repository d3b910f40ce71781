"""`refold coverage`: per-test contexts carry the rule ids, and coverage.py's JSON becomes
the refold-coverage document (lines by rule, percentages, paths relative to the package)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from refold.coverage_run import FORMAT, context_name, coverage_document

TINY_TEST = '''
import pytest
import tinypkg

@pytest.mark.rule("TEXT-JOIN", "ENV-ID")
def test_join():
    assert tinypkg.join(["a", "b"]) == "ab"

def test_unmarked():
    assert tinypkg.other() == 1
'''
TINY_PACKAGE = '''
def join(parts):
    return "".join(parts)


def other():
    return 1
'''


def test_a_context_names_the_rules_then_the_test() -> None:
    assert context_name(["TEXT-JOIN", "ENV-ID"], "suites/t.py::test_x") == \
        "TEXT-JOIN,ENV-ID|suites/t.py::test_x"


def test_lines_run_by_a_marked_test_are_charged_to_its_rules(tmp_path: Path) -> None:
    (tmp_path / "tinypkg").mkdir()
    (tmp_path / "tinypkg" / "__init__.py").write_text(TINY_PACKAGE)
    (tmp_path / "test_tiny.py").write_text(TINY_TEST)
    (tmp_path / ".coveragerc").write_text("[run]\nbranch = True\nsource_pkgs = tinypkg\n")
    run = [sys.executable, "-m", "coverage", "run", "-m", "pytest", "test_tiny.py", "-p", "refold.coverage_run", "-p", "no:cacheprovider",
           "-q", "--rootdir", str(tmp_path)]
    subprocess.run(run, cwd=tmp_path, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "coverage", "json", "--show-contexts", "-o",
                    "cov.json"], cwd=tmp_path, check=True, capture_output=True)
    raw = json.loads((tmp_path / "cov.json").read_text())
    document = coverage_document(raw, target="tinypkg", package="tinypkg", root=tmp_path,
                                 pytest_status=0, profile="ci")
    assert document["format"] == FORMAT
    rules_by_line = document["files"]["tinypkg/__init__.py"]["rules_by_line"]
    assert rules_by_line == {"3": ["ENV-ID", "TEXT-JOIN"]}  # join's body; other() is unmarked
    assert document["lines_by_rule"] == {"ENV-ID": {"tinypkg/__init__.py": [3]},
                                         "TEXT-JOIN": {"tinypkg/__init__.py": [3]}}
    assert document["totals"]["lines_percent"] == 100.0


def test_a_hypothesis_test_charges_its_lines_to_its_rules_not_to_the_runner(
        tmp_path: Path) -> None:
    (tmp_path / "tinypkg").mkdir()
    (tmp_path / "tinypkg" / "__init__.py").write_text(TINY_PACKAGE)
    (tmp_path / "test_tiny.py").write_text(
        "import pytest\nfrom hypothesis import given, settings, strategies as st\n"
        "import tinypkg\n\n@pytest.mark.rule('TEXT-JOIN')\n@settings(max_examples=5)\n"
        "@given(st.lists(st.text(max_size=2), max_size=2))\n"
        "def test_join(parts):\n    assert tinypkg.join(parts) == ''.join(parts)\n")
    (tmp_path / ".coveragerc").write_text("[run]\nsource_pkgs = tinypkg\n")
    subprocess.run([sys.executable, "-m", "coverage", "run", "-m",
                    "pytest", "test_tiny.py", "-p", "refold.coverage_run", "-p",
                    "no:cacheprovider", "-q", "--rootdir", str(tmp_path)],
                   cwd=tmp_path, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "coverage", "json", "--show-contexts", "-o",
                    "cov.json"], cwd=tmp_path, check=True, capture_output=True)
    contexts = json.loads((tmp_path / "cov.json").read_text())["files"]
    line_contexts = next(iter(contexts.values()))["contexts"]["3"]
    assert line_contexts == ["TEXT-JOIN|test_tiny.py::test_join"]
