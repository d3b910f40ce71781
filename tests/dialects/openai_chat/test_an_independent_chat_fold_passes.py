"""An independent Chat Completions fold, written from chat-fold.md alone by an implementer who
had read neither the reference fold nor the suites (a clean-room run, 2026-12-07), passes
every rule it claims: no suite demands more than the contract says.

The fold (`independent_chat_fold.py`) is kept as its author wrote it, format aside; it
claims every fold feature but `sse` and `events`. It passed on its first run (49 rules). It
runs as a user runs a target, `pytest --target=<file>` in a fresh process, whole suite, ci
profile.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _suite_runs import run_suites

from refold.reference.chat import RULES

_FOLD = Path(__file__).with_name("independent_chat_fold.py")

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_an_independent_fold_passes_every_rule_it_claims": tuple(RULES),
}


# A whole suite run (about a minute): the nightly workflow's, with the suite-strength runs.
@pytest.mark.nightly
def test_an_independent_fold_passes_every_rule_it_claims(tmp_path: Path) -> None:
    run = run_suites(str(_FOLD), "openai-chat", tmp_path / "run")
    assert run.exit_code == 0, run.tail()
    assert run.rules_with("failed") == set(), run.tail()
    assert run.rules_with("passed") >= set(RULES), run.tail()
