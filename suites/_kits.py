"""The run's dialect's suite kit: the parts of the generic suites that are a dialect's own.

A generic suite (a top-level `test_*.py` module of `refold.suites`) states one property
for every dialect. What it draws (the dialect's known results and their splits, its
damaged streams, the bytes its decoder is sent, the noise its robustness rules pass
over) and the rule ids each test checks are the
dialect's: the module of its suites that `Dialect.kit` names (`openai_chat._kit`,
`anthropic._kit`, `responses._kit`) holds, per generic suite, a table from each test's
parameter name to its cases, each a `pytest.param` marked with the case's rules. A
generic module's `pytest_generate_tests` parametrizes its tests from the table of the
dialect the run is collected for (`refold.run.state.collecting_dialect`), so every test
is marked with its dialect's rules and the harness charges its failures as any other
test's; a test the dialect's kit has no case of is left out of its runs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.run.marks import rule
from refold.run.state import collecting_dialect

from ._sse_items import with_inserted

if TYPE_CHECKING:
    from _pytest.mark.structures import ParameterSet

__all__ = [
    "Draw",
    "Framing",
    "Items",
    "all_families",
    "by_event_lines",
    "cases",
    "framed",
    "one_feature",
    "parametrize_from",
    "per_feature",
    "split_family",
]

Draw = Callable[[frozenset[str]], st.SearchStrategy[Any]]
"""A case of a round trip or a differential test: given the target's claimed features,
the strategy of what it folds ((expected, stream) or a stream)."""
Framing = Callable[[frozenset[str], st.DataObject], list[bytes]]
"""A case of an item-layer SSE test: given the claimed features, the byte pieces sent."""
Items = Callable[[frozenset[str], st.DataObject], list[JSON]]
"""Given the claimed features, the items an SSE case frames."""

_PARAMETERS: dict[str, tuple[str, ...]] = {
    "ROUND_TRIP": ("family", "mixed", "feature"),
    "DIFFERENTIAL": ("damaged", "malformed"),
    "SSE": ("framed", "passed_through"),
    "ROBUSTNESS": ("wrong_typed", "junk", "noise", "kept", "refused"),
    "LIFECYCLE": ("concern", "empty", "cut"),
}
"""Each kit table a generic suite reads, and the parameter names its tests take cases by."""


def _table(config: pytest.Config, part: str) -> Mapping[str, Sequence[Any]]:
    dialect = collecting_dialect(config)
    if dialect.kit is None:
        return {}
    kit = importlib.import_module(f"{__package__}.{dialect.kit}")
    table: Mapping[str, Sequence[Any]] = getattr(kit, part, {})
    return table


def parametrize_from(metafunc: pytest.Metafunc, part: str) -> None:
    """Parametrize the test with its cases in the run's dialect's kit table `part`: the
    one of its parameters the table names (no case: an empty parameter set, which the
    harness leaves out of the run)."""
    table = _table(metafunc.config, part)
    for name in _PARAMETERS[part]:
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, list(table.get(name, ())))
            return


RoundTrips = Callable[..., st.SearchStrategy[Any]]
"""A dialect's `round_trips(features=..., families=...)`: (expected, stream) cases."""
FamiliesFor = Callable[[frozenset[str]], frozenset[int]]
"""A dialect's `families_for(features)`: the split families whose rules they are."""


def split_family(round_trips: RoundTrips, family: int, focus: frozenset[str] | None) -> Draw:
    """The splits of family `family` (with the plain shape's, family 1), of results
    drawn with the claimed features (only those of `focus` when given: the blocks and
    fields the family's shapes concern, so the examples go there)."""

    def drawn(claimed: frozenset[str]) -> st.SearchStrategy[Any]:
        features = claimed & focus if focus else claimed
        return round_trips(features=features, families={1, family})

    return drawn


def all_families(
    round_trips: RoundTrips, families_for: FamiliesFor, *, drawn_without: frozenset[str]
) -> Draw:
    """The splits of every family of the claimed features (less `drawn_without`: what
    another suite draws), mixed."""

    def drawn(claimed: frozenset[str]) -> st.SearchStrategy[Any]:
        features = claimed - drawn_without
        return round_trips(features=features, families=families_for(features))

    return drawn


def one_feature(round_trips: RoundTrips, families_for: FamiliesFor, feature: str) -> Draw:
    """The splits of results using `feature` (and text), by the families `families_for`
    gives those two features: a per-feature test fails only on its feature's rules."""

    def drawn(claimed: frozenset[str]) -> st.SearchStrategy[Any]:
        features = frozenset({"text", feature})
        return round_trips(features=features, families=families_for(features))

    return drawn


def cases(table: Mapping[str, tuple[Any, Sequence[str]]]) -> list[ParameterSet]:
    """A kit table's cases: by id, what the test takes (a draw, a machine, ...) and the
    rules it checks, which it is marked with."""
    return [
        pytest.param(case, marks=rule(*rules), id=name) for name, (case, rules) in table.items()
    ]


def per_feature(
    round_trips: RoundTrips,
    families_for: FamiliesFor,
    rules: Mapping[str, Sequence[str]],
    *,
    every: Sequence[str] = (),
) -> list[ParameterSet]:
    """A case per feature, named after it: the splits of results using it (`one_feature`),
    marked with the rules `every` feature's results check, then its own."""
    return [
        pytest.param(
            one_feature(round_trips, families_for, feature), marks=rule(*every, *own), id=feature
        )
        for feature, own in rules.items()
    ]


def framed(
    items: Items,
    framing: Callable[[list[JSON]], st.SearchStrategy[list[bytes]]],
    *,
    inserted: tuple[JSONObject, ...] = (),
) -> Framing:
    """The byte pieces `framing` cuts the drawn `items` into, with one to three of
    `inserted` (frames a decoder may be tempted to filter or raise on) among them when
    given."""

    def parts(claimed: frozenset[str], data: st.DataObject) -> list[bytes]:
        drawn = items(claimed, data)
        if inserted:
            drawn = with_inserted(data, drawn, inserted)
        pieces: list[bytes] = data.draw(framing(drawn), label="parts")
        return pieces

    return parts


_EVENT_LINES: tuple[tuple[bool | None, str], ...] = (
    (True, "named"),
    (False, "unnamed"),
    (None, "mixed"),
)
"""How frames are named (an `event:` line each, none, or either), and the case's id."""


def by_event_lines(
    items: Items, sse_bytes: Callable[..., st.SearchStrategy[list[bytes]]], rules: Sequence[str]
) -> list[ParameterSet]:
    """A case per way of naming frames: the drawn `items` framed by
    `sse_bytes(items, event_lines=...)`, marked with `rules`."""
    return cases(
        {
            name: (framed(items, partial(sse_bytes, event_lines=lines)), rules)
            for lines, name in _EVENT_LINES
        }
    )
