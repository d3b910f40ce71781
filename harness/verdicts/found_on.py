"""Where a failure was found (verdicts.md §2): its stream's shape, and a rule's verdict.

One place says what shape a failure's stream has, so that the search (a shape ceiling,
`refold.run.search`), the records (`refold.records.replay`) and the rule verdicts
(`refold.records.results`)
never disagree:

* a dialect that cannot tell shapes (`Dialect.shapes` is None) shows nothing documented:
  every stream of it is `synthetic`, with no departure named;
* a failure that needed no stream (an accumulator that cannot be built, a decoder that is
  not declared) is `documented`: nothing it showed departs from what the provider sends;
* every other stream has the shape its dialect's `StreamShapes` tells; a stream a wire
  rule's test sent as bytes has the worst of its items' shape and its framing's
  (`refold.verdicts.wire_shapes`): a data-only frame decodes to the same event as a named one.

A rule's verdict is read off the failures charged to it: its `found_on` is the least
departing shape among them, its `impact` the worst impact among those found on that shape,
and the failure its verdict rests on (the one its record shows and its replay file
replays) is the first of those with that impact. A failure record written before shapes
has no `shape`: it reads as `synthetic`, since nothing showed it documented
(`refold.reference.shape_of_record`; the reports read a results file's rule entries with
`rule_found_on` and `rule_impact`, which read a file written before shapes the same way).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from refold.reference import (
    JSON,
    SHAPES,
    FailureRecord,
    Impact,
    Shape,
    impact_of_record,
    shape_of_record,
    worst_impact,
    worst_shape,
)

from ..dialects import Dialect
from .shapes import StreamShape

__all__ = [
    "RuleVerdict",
    "exceeds",
    "least_departing",
    "rule_verdict",
    "shape_of",
    "tells_shapes",
    "wire_shape_of",
    "with_wire",
]

_UNTOLD = StreamShape("synthetic")
"""The shape of every stream of a dialect that cannot tell shapes."""
_NO_STREAM = StreamShape("documented")


def shape_of(dialect: Dialect, stream: Sequence[JSON] | None) -> StreamShape:
    """The shape of `stream` in `dialect` (None: the failure held no stream)."""
    if dialect.shapes is None:  # tells_shapes
        return _UNTOLD
    if stream is None:
        return _NO_STREAM
    return dialect.shapes.of(stream)


def wire_shape_of(dialect: Dialect, parts: Sequence[bytes]) -> StreamShape | None:
    """The shape of the SSE framing of `parts` in `dialect` (`refold.verdicts.wire_shapes`); None
    when the dialect does not tell its bytes."""
    of_wire = getattr(dialect.shapes, "of_wire", None)
    found: StreamShape | None = of_wire(parts) if of_wire is not None else None
    return found


def with_wire(items: StreamShape, wire: StreamShape | None) -> StreamShape:
    """The shape of a stream sent as bytes: the worst of its items' and its framing's,
    with the departures of both."""
    if wire is None:
        return items
    return StreamShape(
        worst_shape([items.shape, wire.shape]),
        items.departures + tuple(d for d in wire.departures if d not in items.departures),
        items.unregistered + wire.unregistered,
    )


def tells_shapes(dialect: Dialect) -> bool:
    """Whether any stream of `dialect` can be shown less departing than `synthetic`."""
    return dialect.shapes is not None


def exceeds(shape: Shape, ceiling: Shape) -> bool:
    """Whether `shape` departs more than `ceiling` allows."""
    return SHAPES.index(shape) > SHAPES.index(ceiling)


def least_departing(shapes: Sequence[Shape]) -> Shape:
    """The least departing of `shapes` ("synthetic" for none: nothing was shown)."""
    return min(shapes, key=SHAPES.index, default="synthetic")


class RuleVerdict(NamedTuple):
    """What a failed rule's record says of where it fails and what that costs."""

    found_on: Shape
    impact: Impact | None
    """None: none of its failures on `found_on` states a cost (an event rule's violation)."""
    failure: FailureRecord | None
    """The failure the verdict rests on (None: no failure was recorded)."""

    @property
    def departures(self) -> list[str]:
        """The departure ids of the stream the verdict rests on."""
        found = self.failure.get("departures") if self.failure is not None else None
        return [str(d) for d in found] if isinstance(found, list) else []


def rule_verdict(failures: Sequence[FailureRecord]) -> RuleVerdict:
    """The verdict of a rule with these failures, in the order they were recorded: the
    least departing shape, the worst impact on it, and the first failure there with it."""
    found_on = least_departing([shape_of_record(f) for f in failures])
    there = [f for f in failures if shape_of_record(f) == found_on]
    impact = worst_impact(i for f in there if (i := impact_of_record(f)) is not None)
    chosen = next((f for f in there if impact_of_record(f) == impact), there[0] if there else None)
    return RuleVerdict(found_on, impact, chosen)
