"""Every recorded stream folds as its case expects: the reference's fold of it, or, for
a stream the reference refuses, a refusal.

The cases are the corpus given with `--corpus DIR` (`refold capture` writes them); a case
is a test of the rules deciding the places its expectation holds, so a difference is
charged by its pointer as in every other suite.
"""

from __future__ import annotations

from refold.capture.corpus import Case
from refold.errors import TargetError
from refold.run.checks import Check


def test_a_recorded_stream_folds_as_its_case_expects(check: Check, corpus_case: Case) -> None:
    if corpus_case.expected is not None:
        check.folds_to(corpus_case.items, corpus_case.expected)
        return
    try:
        received = check.target.fold(corpus_case.items)
    except TargetError as exc:
        if exc.kind == "raised":
            return
        raise check.fail(
            f"the target failed ({exc.kind}) on a stream the reference refuses",
            chunks=corpus_case.items,
            target_error=str(exc),
        ) from exc
    raise check.fail(
        f"the target folded a stream the reference refuses ({corpus_case.refusal})",
        chunks=corpus_case.items,
        received=received,
    )
