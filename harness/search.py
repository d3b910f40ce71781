"""How far a run searches a property test: only as far as the run's verdicts need.

A run's verdict is one status per rule, and a failed rule stays failed whatever else
fails. A target that fails many properties (openai-python fails dozens) used to spend
most of a run shrinking failures whose rules had already failed, each for up to
Hypothesis's five minutes. So, in a run that collects refold suites:

* the tests that are not Hypothesis tests (rule examples, quirk streams) run first:
  they are cheap and show each defect on a hand-minimal stream;
* a property test whose rules have all failed already in this process is searched as
  usual (all its examples, each distinct failure) but not shrunk, unless the failure it
  reports is evidence against a rule that has not failed yet (then it is searched again,
  shrinking);
* every other failure is shrunk for at most `DEFAULT_SHRINK_SECONDS` (unless
  `--shrink-seconds` says otherwise);
* no property runs Hypothesis's explain phase, which replays a shrunk failure once per
  choice to mark the parts that could vary: minutes per failure against an SDK, and it
  never changes a verdict.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import Phase, is_hypothesis_test, settings

from .checks import ConformanceFailure
from .marks import rules_of_item

__all__ = ["UNSHRUNK", "explain_shrink_stop", "is_property_test", "properties_last",
           "replayed_as_recorded", "run_as_needed"]

UNSHRUNK = pytest.StashKey[bool]()
"""Set on an item whose failure was reported unshrunk (its replay file says so)."""


def is_property_test(item: pytest.Item) -> bool:
    """Whether the item is a Hypothesis test."""
    return is_hypothesis_test(getattr(item, "obj", None))


def properties_last(items: list[pytest.Item]) -> None:
    """Move the property tests after the others, keeping each group's order."""
    items.sort(key=is_property_test)


def run_as_needed(item: pytest.Function, already_failed: Callable[[str], bool],
                  failure_of: Callable[[BaseException], ConformanceFailure | None]) -> bool | None:
    """Run a refold property test only as far as the verdicts need (None: not one).

    When every rule of the test has failed already, its failures are reported unshrunk
    (the search for distinct failures goes on as usual), unless the reported one is
    evidence against a rule that has not failed yet (by where its differences are): then
    the test is searched again, shrinking, so a new rule's failure is always a shrunk one.
    Phases a test's own `@settings` dropped stay dropped; everything else (examples,
    derandomization, database) is the test's own.
    """
    function, rules = _hypothesis_function(item), rules_of_item(item)
    if function is None or not rules:
        return None  # not a refold property: pytest runs it as it always does
    arguments = {name: item.funcargs[name] for name in item._fixtureinfo.argnames}
    if all(already_failed(rule) for rule in rules):
        try:
            with _unshrunk(function):
                function(**arguments)
            return True
        except Exception as exc:
            failure = failure_of(exc)
            if all(already_failed(r) for r in (failure.implicated if failure else rules)):
                item.add_report_section("call", "refold", _NOT_SHRUNK.format(", ".join(rules)))
                item.stash[UNSHRUNK] = True
                raise
    with _without(function, {Phase.explain}):
        function(**arguments)
    return True


@contextlib.contextmanager
def replayed_as_recorded(item: pytest.Item, recorded: dict[str, Any]) -> Iterator[None]:
    """Re-run a recorded failure that was not shrunk without shrinking it, so that a seed
    finds the recorded example again rather than a smaller one."""
    function = _hypothesis_function(item)
    if function is None or recorded.get("shrunk") is not False:
        yield
        return
    with _unshrunk(function):
        yield


@contextlib.contextmanager
def _unshrunk(function: Any) -> Iterator[None]:
    """Search as usual, but shrink nothing: generation still goes on after a first failure
    to find the test's other distinct failures (each may implicate other rules), which it
    would not do with the shrink phase dropped."""
    from hypothesis.internal.conjecture import engine

    budget = engine.MAX_SHRINKING_SECONDS
    engine.MAX_SHRINKING_SECONDS = 0
    try:
        with _without(function, {Phase.explain}):
            yield
    finally:
        engine.MAX_SHRINKING_SECONDS = budget


def _hypothesis_function(item: pytest.Item) -> Any:
    obj = getattr(item, "obj", None)
    function = getattr(obj, "__func__", obj)
    return function if is_hypothesis_test(function) else None


@contextlib.contextmanager
def _without(function: Any, dropped: set[Phase]) -> Iterator[None]:
    own: settings = function._hypothesis_internal_use_settings
    function._hypothesis_internal_use_settings = settings(
        own, phases=[phase for phase in own.phases if phase not in dropped])
    try:
        yield
    finally:
        function._hypothesis_internal_use_settings = own


_NOT_SHRUNK = ("not shrunk: every rule of this test ({}) had already failed earlier in this "
               "run, so its failing example is shown as found; the rule's first failure "
               "shows a minimal stream (refold.search)")


# Hypothesis words every stop of its shrink clock as five minutes of slow progress and
# asks for a bug report; under refold the clock is the budget this module set.
_SLOW_SHRINK = re.compile(
    r"WARNING: Hypothesis has spent more than five minutes working to shrink.*?"
    r"shrinking performance for everyone\.", re.S)
_EXITED_EARLY = "This test function exited early because it took too long to shrink."


def explain_shrink_stop(item: pytest.Item, budget: float | None) -> None:
    """Say, in place of Hypothesis's slow-shrink warning, that refold's budget ran out.

    Called before the report is made: Hypothesis's plugin turns the text it left on the
    item into the report's "Hypothesis" section."""
    text = getattr(item, "hypothesis_report_information", None)
    if not isinstance(text, str):
        return
    said = (f"refold: shrinking stopped at this run's budget ({budget:g} s a failing "
            f"example; --shrink-seconds changes it)" if budget else
            "refold: not shrunk (see the refold section)")
    item.hypothesis_report_information = _SLOW_SHRINK.sub(said, text).replace(  # type: ignore[attr-defined]
        _EXITED_EARLY, "This test function stopped shrinking at refold's budget.")
