"""A stream's shape is the worst of its departures; a violation no departure explains is
an unregistered departure, which makes it synthetic (verdicts.md §1)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from refold.reference import JSON
from refold.verdicts.shapes import Departure, GrammarLine, StreamShapes, Violation

_SCHEMA = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"enum": ["start", "delta", "stop"]}, "index": {"type": "integer"}},
}


def _starts_first(items: Sequence[JSON]) -> list[Violation]:
    first = items[0] if items else None
    ok = isinstance(first, dict) and first.get("type") == "start"
    return [] if ok else [Violation(0, "", "grammar: the stream opens with start")]


def _without_index(items: Sequence[JSON]) -> list[int]:
    return [
        i
        for i, item in enumerate(items)
        if isinstance(item, dict) and item.get("type") == "delta" and "index" not in item
    ]


def _wrong_type(items: Sequence[JSON]) -> list[int]:
    return [
        i
        for i, item in enumerate(items)
        if isinstance(item, dict) and not isinstance(item.get("index", 0), int)
    ]


_SHAPES = StreamShapes(
    schema=_SCHEMA,
    grammar=(GrammarLine("start first", "https://example.invalid/doc#order", _starts_first),),
    departures={
        "T1": Departure("T1", "observed", "deltas without index", ("Some gateway: https://x",)),
        "T-WRONG-TYPE": Departure("T-WRONG-TYPE", "synthetic", "an index that is not a number"),
    },
    detectors={"T1": _without_index, "T-WRONG-TYPE": _wrong_type},
)


def test_a_stream_breaking_nothing_is_documented() -> None:
    shape = _SHAPES.of([{"type": "start"}, {"type": "delta", "index": 0}, {"type": "stop"}])
    assert shape.shape == "documented" and shape.departures == () and shape.unregistered == ()


def test_a_registered_observed_departure_makes_it_observed() -> None:
    shape = _SHAPES.of([{"type": "start"}, {"type": "delta"}])
    assert shape.shape == "observed" and shape.departures == ("T1",)


def test_the_worst_departure_decides() -> None:
    shape = _SHAPES.of([{"type": "start"}, {"type": "delta"}, {"type": "stop", "index": "x"}])
    assert shape.shape == "synthetic" and shape.departures == ("T1", "T-WRONG-TYPE")


def test_a_violation_no_departure_explains_is_synthetic_and_named() -> None:
    shape = _SHAPES.of([{"type": "delta", "index": 0}, {"type": "bogus"}])
    assert shape.shape == "synthetic" and shape.departures == ()
    assert [v.item for v in shape.unregistered] == [0, 1]
    assert "unregistered" in shape.describe() and "item 1" in shape.describe()


def test_an_observed_departure_must_name_its_provenance() -> None:
    with pytest.raises(ValueError, match="provenance"):
        Departure("X", "observed", "something")
