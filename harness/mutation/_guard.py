"""A pytest plugin for runs against mutants (`-p refold.mutation._guard`).

Two jobs, both about keeping a mutation run's verdicts right and its time bounded.

The harness itself calls the reference while collecting (rule lookups, loading the
target). A mutant that breaks those calls makes the plugin raise `pytest.UsageError`,
and pytest exits with status 4, which mutmut treats as a broken command line and
aborts the whole run on (its forced-fail check always hits this). Raised from here
instead as an ordinary error, it ends the run as an internal error (status 3), which
mutmut counts as killed: the suite did notice the mutant. The green run before
mutation rejects status 3, so a real usage error is never hidden.

A mutant that makes the fold loop (`i += 1` turned into `i -= 1` in a scanner) hangs
in the first test that reaches it. mutmut's own limit is per mutant, proportional to
the summed time of every test reaching the function, which for the reference's core
is minutes per looping mutant. So each test of a mutant run gets its own wall-clock
budget, a multiple of the time it took unmutated (from mutmut's stats); a test that
overruns ends the run with mutmut's timeout status, which the score counts as detected.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Generator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

__all__ = ["MUTMUT_TIMEOUT_STATUS", "MutantBrokeTheHarness", "budget_for"]

MUTMUT_TIMEOUT_STATUS = 36
"""The exit status mutmut records as "timeout"."""

_BUDGET_FACTOR = 10.0
_BUDGET_FLOOR_SECONDS = 5.0
_STATS_FILE = "mutmut-stats.json"


class MutantBrokeTheHarness(RuntimeError):
    """A mutant made the harness unable to collect or load the target."""


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_collection_modifyitems() -> Generator[None, Any, Any]:
    try:
        return (yield)
    except pytest.UsageError as exc:
        raise MutantBrokeTheHarness(str(exc)) from exc


def budget_for(unmutated_seconds: float) -> float:
    """Wall-clock seconds a test may take on a mutant, given its unmutated time."""
    return max(_BUDGET_FLOOR_SECONDS, _BUDGET_FACTOR * unmutated_seconds)


def _durations() -> dict[str, float]:
    """Unmutated test durations by node id; empty outside a mutant run."""
    if "__mutmut_" not in os.environ.get("MUTANT_UNDER_TEST", ""):
        return {}  # the green, stats, clean and forced-fail runs are not timed
    try:
        stats = json.loads(Path(_STATS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    durations = stats.get("duration_by_test", {})
    return durations if isinstance(durations, dict) else {}


def _overran(signum: int, frame: FrameType | None) -> None:
    # os._exit, not an exception: Hypothesis would catch an exception as a failing
    # example and replay it while shrinking, hanging again.
    os._exit(MUTMUT_TIMEOUT_STATUS)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, Any, Any]:
    if _DURATIONS_KEY not in item.config.stash:  # read the stats once per run, not per test
        item.config.stash[_DURATIONS_KEY] = _durations()
    durations = item.config.stash[_DURATIONS_KEY]
    if item.nodeid not in durations:
        return (yield)
    previous = signal.signal(signal.SIGALRM, _overran)
    signal.setitimer(signal.ITIMER_REAL, budget_for(float(durations[item.nodeid])))
    try:
        return (yield)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_DURATIONS_KEY = pytest.StashKey[dict[str, Any]]()
