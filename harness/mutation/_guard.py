"""A pytest plugin for runs against mutants (`-p refold.mutation._guard`).

The harness itself calls the reference while collecting (rule lookups, loading the
target). A mutant that breaks those calls makes the plugin raise `pytest.UsageError`,
and pytest exits with status 4, which mutmut treats as a broken command line and
aborts the whole run on (its forced-fail check always hits this). Raised from here
instead as an ordinary error, it ends the run as an internal error (status 3), which
mutmut counts as killed: the suite did notice the mutant. The green run before
mutation rejects status 3, so a real usage error is never hidden.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

__all__ = ["MutantBrokeTheHarness"]


class MutantBrokeTheHarness(RuntimeError):
    """A mutant made the harness unable to collect or load the target."""


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_collection_modifyitems() -> Generator[None, Any, Any]:
    try:
        return (yield)
    except pytest.UsageError as exc:
        raise MutantBrokeTheHarness(str(exc)) from exc
