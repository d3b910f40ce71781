"""An independent Responses fold, written from responses-fold.md alone by an implementer who
had read neither the reference fold nor the suites (a clean-room run, 2026-12-07), passes
every rule it claims: no suite demands more than the contract says. A test that held it to
the reference's reading of a sentence the contract leaves open fails here, not only on
someone else's implementation.

The fold (`independent_responses_fold.py`) is kept as its author left it, lint aside; it
claims every feature but `sse`. Its first run failed on two sentences the contract leaves
open, where its author then took the reference's reading: a delta at a content index no part
was added at opens a part (as RS-ORPHAN opens an item), and a re-add of another type keeps
only what that type holds (RS-READD's "for it"). A third, text crossing part types, was the
reference's defect, fixed (RS-REFUSAL). It runs as a user runs a target, `pytest
--target=<file>` in a fresh process, whole suite, ci profile.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _suite_runs import run_suites

from refold.reference.responses import RULES

_FOLD = Path(__file__).with_name("independent_responses_fold.py")

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_an_independent_fold_passes_every_rule_it_claims": tuple(RULES),
}


# A whole suite run (about a minute): the nightly workflow's, with the suite-strength runs.
@pytest.mark.nightly
def test_an_independent_fold_passes_every_rule_it_claims(tmp_path: Path) -> None:
    run = run_suites(str(_FOLD), "openai-responses", tmp_path / "run")
    assert run.exit_code == 0, run.tail()
    assert run.rules_with("failed") == set(), run.tail()
    assert run.rules_with("passed") >= set(RULES) - set(), run.tail()
