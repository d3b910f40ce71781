"""How far a run searches a property test: only as far as the run's verdicts need.

A run's verdict is one status per rule, and a failed rule stays failed whatever else
fails. A target that fails many properties (openai-python fails dozens) used to spend
most of a run shrinking failures whose rules had already failed, each for up to
Hypothesis's five minutes. So, in a run that collects refold suites:

* the tests that are not Hypothesis tests (rule examples, quirk streams) run first:
  they are cheap and show each defect on a hand-minimal stream;
* a property test whose rules have all failed already in this process stops at its
  first failing example and does not shrink it (its verdict is already known);
* every other failure is shrunk for at most `DEFAULT_SHRINK_SECONDS` (unless
  `--shrink-seconds` says otherwise);
* no property runs Hypothesis's explain phase, which replays a shrunk failure once per
  choice to mark the parts that could vary: minutes per failure against an SDK, and it
  never changes a verdict.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import Phase, is_hypothesis_test, settings

__all__ = ["is_property_test", "properties_last", "searched_as_needed"]


def is_property_test(item: pytest.Item) -> bool:
    """Whether the item is a Hypothesis test."""
    return is_hypothesis_test(getattr(item, "obj", None))


def properties_last(items: list[pytest.Item]) -> None:
    """Move the property tests after the others, keeping each group's order."""
    items.sort(key=is_property_test)


@contextlib.contextmanager
def searched_as_needed(item: pytest.Item, already_failed: Callable[[str], bool],
                       rules: tuple[str, ...]) -> Iterator[None]:
    """Run the item's property without explain, and without shrink if its rules all failed.

    Phases a test's own `@settings` dropped stay dropped; everything else (examples,
    derandomization, database) is the test's own.
    """
    obj = getattr(item, "obj", None)
    function: Any = getattr(obj, "__func__", obj)
    if not is_hypothesis_test(function):
        yield
        return
    own: settings = function._hypothesis_internal_use_settings
    known = bool(rules) and all(already_failed(rule) for rule in rules)
    dropped = {Phase.explain, Phase.shrink} if known else {Phase.explain}
    function._hypothesis_internal_use_settings = settings(
        own, phases=[phase for phase in own.phases if phase not in dropped])
    try:
        yield
    except BaseException:
        if known:
            item.add_report_section("call", "refold", _NOT_SHRUNK.format(", ".join(rules)))
        raise
    finally:
        function._hypothesis_internal_use_settings = own


_NOT_SHRUNK = ("not shrunk: every rule of this test ({}) had already failed earlier in this "
               "run, so its first failing example is shown as found; the rule's first failure "
               "shows a minimal stream (refold.search)")
