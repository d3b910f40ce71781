"""The documentation: the README is a landing page, and docs/ builds in strict mode.

The README keeps the two quick-start commands `.ci/run` runs verbatim; everything else
lives in docs/, a MkDocs site (mkdocs.yml) whose strict build fails on a broken link or
anchor, a page left out of the navigation, or an API reference (mkdocstrings) that no
longer resolves to a module.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
QUICK_START = (
    "python3 -m venv .venv && . .venv/bin/activate && pip install . "
    "&& refold check --target reference",
    "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[dev]' "
    "&& npm ci --prefix harness/targets/sdk/node && pytest -n auto",
)


def test_the_readme_is_a_landing_page_of_at_most_300_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move detail into docs/"


@pytest.mark.parametrize("command", QUICK_START, ids=["check", "tests"])
def test_the_readme_quick_start_commands_are_the_ones_ci_runs_verbatim(command: str) -> None:
    readme = README.read_text(encoding="utf-8").splitlines()
    quick_start = readme[readme.index("## Quick start") :]
    assert command in quick_start, "the README's quick start lost a command, or changed it"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert any(line.strip() == command for line in ci), ".ci/run no longer runs it verbatim"


def test_every_relative_link_of_the_readme_names_a_file_of_the_repository() -> None:
    # The strict build checks the links inside docs/; the README is outside it.
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    relative = [link for link in links if "://" not in link]
    assert relative, "the README links into docs/"
    missing = [link for link in relative if not (ROOT / link).is_file()]
    assert not missing, f"README links to files that do not exist: {missing}"


def test_the_documentation_builds_in_strict_mode(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    pytest.importorskip("mkdocstrings_handlers.python", reason="the docs extra is not installed")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-4000:]
    for page in ("index.html", "dialects/openai-chat/index.html", "api/reference/index.html"):
        assert (tmp_path / page).is_file(), page
    # The API reference was generated from the docstrings, not left as a directive.
    api = (tmp_path / "api" / "reference" / "index.html").read_text(encoding="utf-8")
    assert ":::" not in api and 'id="refold.reference.chat.differences"' in api
