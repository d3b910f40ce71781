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
  never changes a verdict;
* documented streams first (verdicts.md §2): a property that failed on a stream whose
  shape is worse than `documented` is searched again under a *shape ceiling*,
  `documented`, then `observed`, while some rule that failure charges has not failed on
  such streams yet in this process. Under a ceiling `refold.run.checks.Check` rejects every
  stream of a worse shape, so Hypothesis draws and shrinks only among streams of that
  shape; the first ceiling under which the test fails gives the failure reported (with
  the first one beside it when it does not charge every rule the first one charges); a
  test whose strategies cannot draw such streams (Unsatisfiable, the filter health
  check) or that passes on them moves on to the next shape, and the first failure is
  reported when none fails. A passing property costs what it did: the search is phased
  only after a failure. How each reported failure was found (its ceiling, whether it was
  shrunk, its seed) is kept on the item (`FOUND`) for its replay file, which re-runs it
  under the same ceiling.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, Phase, is_hypothesis_test, settings
from hypothesis.errors import FailedHealthCheck, Unsatisfiable

from refold.reference import SHAPES, Shape

from ..verdicts.found_on import exceeds, tells_shapes
from .checks import Check, ConformanceFailure, conformance_failures
from .marks import rules_of_item

__all__ = [
    "FOUND",
    "UNSHRUNK",
    "Found",
    "explain_shrink_stop",
    "is_property_test",
    "properties_last",
    "replayed_as_recorded",
    "run_as_needed",
]

UNSHRUNK = pytest.StashKey[bool]()
"""Set on an item whose failure was reported unshrunk (its replay file says so)."""


class Found(NamedTuple):
    """How a reported failure was found: what its replay file needs to find it again."""

    ceiling: Shape | None
    """The shape ceiling of the search that found it (None: the test's own search)."""
    shrunk: bool
    seed: int | None
    """The seed Hypothesis generated for that search (None: derandomized or given)."""


FOUND = pytest.StashKey[dict[int, Found]]()
"""On a property test's item: how each failure it reports was found, by `id()`."""


def is_property_test(item: pytest.Item) -> bool:
    """Whether the item is a Hypothesis test."""
    return is_hypothesis_test(getattr(item, "obj", None))


def properties_last(items: list[pytest.Item]) -> None:
    """Move the property tests after the others, keeping each group's order."""
    items.sort(key=is_property_test)


def run_as_needed(
    item: pytest.Function,
    already_failed: Callable[[str], bool],
    failure_of: Callable[[BaseException], ConformanceFailure | None],
    found_on: Callable[[str], Shape | None] = lambda _rule: None,
) -> bool | None:
    """Run a refold property test only as far as the verdicts need (None: not one).

    When every rule of the test has failed already, its failures are reported unshrunk
    (the search for distinct failures goes on as usual), unless the reported one is
    evidence against a rule that has not failed yet (by where its differences are): then
    the test is searched again, shrinking, so a new rule's failure is always a shrunk one.
    A failure on a departing stream is then searched for again on less departing ones
    (`found_on`: the least departing shape each rule has failed on in this process, None
    for none; see the module docstring). Phases a test's own `@settings` dropped stay
    dropped; everything else (examples, derandomization, database) is the test's own.
    """
    function, rules = _hypothesis_function(item), rules_of_item(item)
    if function is None or not rules:
        return None  # not a refold property: pytest runs it as it always does
    arguments = {name: item.funcargs[name] for name in item._fixtureinfo.argnames}
    item.stash[FOUND] = {}
    try:
        _search(item, function, arguments, rules, already_failed, failure_of)
    except Exception as exc:
        reported = _on_less_departing(item, function, arguments, exc, found_on)
        if reported is exc:
            raise
        raise reported from None
    return True


def _search(
    item: pytest.Function,
    function: Any,
    arguments: dict[str, Any],
    rules: tuple[str, ...],
    already_failed: Callable[[str], bool],
    failure_of: Callable[[BaseException], ConformanceFailure | None],
) -> None:
    if all(already_failed(rule) for rule in rules):
        try:
            with _unshrunk(function):
                function(**arguments)
            return
        except Exception as exc:
            failure = failure_of(exc)
            if all(already_failed(r) for r in (failure.implicated if failure else rules)):
                item.add_report_section("call", "refold", _NOT_SHRUNK.format(", ".join(rules)))
                item.stash[UNSHRUNK] = True
                raise
    with _without(function, {Phase.explain}):
        function(**arguments)


def _on_less_departing(
    item: pytest.Function,
    function: Any,
    arguments: dict[str, Any],
    exc: Exception,
    found_on: Callable[[str], Shape | None],
) -> Exception:
    """What the test reports: `exc`, or what a search under a shape ceiling found (with
    `exc` beside it when that does not charge every rule `exc` charges)."""
    failures, found = conformance_failures(exc), item.stash[FOUND]
    shrunk = not item.stash.get(UNSHRUNK, False)
    for failure in failures:
        found[id(failure)] = Found(None, shrunk=shrunk, seed=_seed(function))
    check = item.funcargs.get("check")
    if not failures or not isinstance(check, Check) or not tells_shapes(check.dialect):
        return exc  # a dialect that tells no shapes has no less departing stream
    shapes = {id(f): f.stream_shape.shape for f in failures}
    for ceiling in SHAPES[:-1]:
        departing = [f for f in failures if exceeds(shapes[id(f)], ceiling)]
        if not departing:
            break
        if all(_shown_within(found_on(r), ceiling) for f in departing for r in f.implicated):
            continue  # every rule it charges already failed on such streams
        try:
            with _under(check, ceiling), _filtered(function):
                function(**arguments)
        except (Unsatisfiable, FailedHealthCheck):
            continue  # its strategies draw no such stream (the filter health check)
        except Exception as again:
            if again_found := conformance_failures(again):
                for failure in again_found:
                    found[id(failure)] = Found(ceiling, shrunk=True, seed=_seed(function))
                return _together(again, again_found, exc, failures)
    return exc


def _shown_within(shape: Shape | None, ceiling: Shape) -> bool:
    return shape is not None and not exceeds(shape, ceiling)


def _together(
    again: Exception,
    found: list[ConformanceFailure],
    exc: Exception,
    failures: list[ConformanceFailure],
) -> Exception:
    """The failures under the ceiling; the first search's beside them when some rule it
    charged is charged by none of them (its evidence stays, on its own shape)."""
    covered = {r for f in found for r in f.implicated}
    if all(set(f.implicated) <= covered for f in failures):
        return again
    return ExceptionGroup(
        "refold: failures on less departing streams, and the first found", [again, exc]
    )


def _seed(function: Any) -> int | None:
    seed = getattr(function, "_hypothesis_internal_use_generated_seed", None)
    return seed if isinstance(seed, int) else None


@contextlib.contextmanager
def _under(check: Check, ceiling: Shape | None) -> Iterator[None]:
    """Keep the streams `check` lets reach the target to `ceiling`'s shape."""
    before, check.ceiling = check.ceiling, ceiling
    try:
        yield
    finally:
        check.ceiling = before


@contextlib.contextmanager
def replayed_as_recorded(item: pytest.Item, recorded: dict[str, Any]) -> Iterator[None]:
    """Re-run a recorded failure as it was found: under the shape ceiling it was found
    under (`ceiling`), so that a seed draws the streams that search drew; and, when it
    was not shrunk, without shrinking, so that a seed finds the recorded example again
    rather than a smaller one."""
    function = _hypothesis_function(item)
    check = getattr(item, "funcargs", {}).get("check")
    ceiling = recorded.get("ceiling")
    with contextlib.ExitStack() as stack:
        if ceiling in SHAPES and isinstance(check, Check):
            stack.enter_context(_under(check, ceiling))
        if function is not None and recorded.get("shrunk") is False:
            stack.enter_context(_unshrunk(function))
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


CEILING_EXAMPLES = 25
"""The most examples a search under a shape ceiling draws: it is a second search, after
the test's own found a failure, for a less departing stream showing one; a whole second
budget per ceiling made a failing target's run five times as long (the chat round trip
of a broken fold: 14 s of CPU, 247 s with it)."""


@contextlib.contextmanager
def _filtered(function: Any) -> Iterator[None]:
    """Search under a ceiling with the test's own settings but at most `CEILING_EXAMPLES`
    examples, no explain phase, and
    Hypothesis's filter health check on whatever the profile says: a test whose
    strategies rarely draw a stream of the ceiling's shape (the noise family under
    `documented`) stops after its first draws, instead of drawing ten times its examples
    to reject them."""
    own: settings = function._hypothesis_internal_use_settings
    function._hypothesis_internal_use_settings = settings(
        own,
        phases=[phase for phase in own.phases if phase is not Phase.explain],
        max_examples=min(own.max_examples, CEILING_EXAMPLES),
        suppress_health_check=[
            check for check in own.suppress_health_check if check is not HealthCheck.filter_too_much
        ],
    )
    try:
        yield
    finally:
        function._hypothesis_internal_use_settings = own


@contextlib.contextmanager
def _without(function: Any, dropped: set[Phase]) -> Iterator[None]:
    own: settings = function._hypothesis_internal_use_settings
    function._hypothesis_internal_use_settings = settings(
        own, phases=[phase for phase in own.phases if phase not in dropped]
    )
    try:
        yield
    finally:
        function._hypothesis_internal_use_settings = own


_NOT_SHRUNK = (
    "not shrunk: every rule of this test ({}) had already failed earlier in this "
    "run, so its failing example is shown as found; the rule's first failure "
    "shows a minimal stream (refold.run.search)"
)


# Hypothesis words every stop of its shrink clock as five minutes of slow progress and
# asks for a bug report; under refold the clock is the budget this module set.
_SLOW_SHRINK = re.compile(
    r"WARNING: Hypothesis has spent more than five minutes working to shrink.*?"
    r"shrinking performance for everyone\.",
    re.S,
)
_EXITED_EARLY = "This test function exited early because it took too long to shrink."


def explain_shrink_stop(item: pytest.Item, budget: float | None) -> None:
    """Say, in place of Hypothesis's slow-shrink warning, that refold's budget ran out.

    Called before the report is made: Hypothesis's plugin turns the text it left on the
    item into the report's "Hypothesis" section."""
    text = getattr(item, "hypothesis_report_information", None)
    if not isinstance(text, str):
        return
    said = (
        f"refold: shrinking stopped at this run's budget ({budget:g} s a failing "
        f"example; --shrink-seconds changes it)"
        if budget
        else "refold: not shrunk (see the refold section)"
    )
    item.hypothesis_report_information = _SLOW_SHRINK.sub(said, text).replace(  # type: ignore[attr-defined]
        _EXITED_EARLY, "This test function stopped shrinking at refold's budget."
    )
