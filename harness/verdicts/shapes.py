"""Stream shapes (verdicts.md §1): is a stream one the provider documents, one a real
provider is known to send, or one nobody sends?

Dialect-neutral: a dialect registers a `StreamShapes` (its vendored JSON Schema of the
provider's stream events, its documented grammar as data, its registry of departures and
a detector per departure) as `Dialect.shapes`, and everything that shows, records or
searches a stream asks it for the stream's `StreamShape`.

A stream is classified in three steps:

1. every item is validated against the schema (`jsonschema`; keys the schema does not
   list are allowed, providers add keys), and every grammar line checks the order of the
   items: each finding is a `Violation` at an item number and a JSON pointer;
2. each registered departure's detector names the items where the stream departs that
   way;
3. the stream's shape is the worst class among the departures found; a violation at an
   item no found departure names is an unregistered departure, which makes the stream
   `synthetic` (verdicts.md: "a departure without provenance is synthetic").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import Any, Literal, NamedTuple, Protocol

from refold.reference import JSON, Shape, worst_shape

from .wire_shapes import FrameKind, framing_departures

__all__ = [
    "Departure",
    "GrammarLine",
    "Shapes",
    "StreamShape",
    "StreamShapes",
    "Violation",
    "load_schema",
    "schema_violations",
]

DepartureClass = Literal["observed", "synthetic"]


class Violation(NamedTuple):
    """One place a stream is not as documented."""

    item: int
    """The item's number in the stream, from 0."""
    pointer: str
    """The RFC 6901 pointer inside that item ("" for the item as a whole)."""
    what: str
    """What the schema or the grammar line says, in a sentence."""

    def __str__(self) -> str:
        return f"item {self.item}{' at ' + self.pointer if self.pointer else ''}: {self.what}"


@dataclass(frozen=True)
class Departure:
    """A registered way a stream may depart from the documented shape."""

    id: str
    """Stable id: the quirk's (`Q4`, `AQ3`, `RQ2`) or a dialect-prefixed name."""
    shape: DepartureClass
    """`observed`: a named real provider, proxy or gateway is known to send it."""
    summary: str
    """What the stream does, in a phrase ("tool-call fragments without `index`")."""
    provenance: tuple[str, ...] = ()
    """For `observed`: who sends it and where that is shown (a doc page, an issue, a capture)."""

    def __post_init__(self) -> None:
        if self.shape == "observed" and not self.provenance:
            raise ValueError(f"departure {self.id} is observed but names no provenance")


@dataclass(frozen=True)
class GrammarLine:
    """One line of a dialect's documented grammar: what it allows, where the provider says
    so, and the check that finds the items breaking it."""

    says: str
    """The line, as the provider's page puts it."""
    source: str
    """The page it comes from (a URL, with its section)."""
    check: Callable[[Sequence[JSON]], Iterable[Violation]]


class StreamShape(NamedTuple):
    """A stream's shape and what makes it so."""

    shape: Shape
    departures: tuple[str, ...] = ()
    """The ids of the registered departures found, in registry order."""
    unregistered: tuple[Violation, ...] = ()
    """Violations no found departure accounts for (each makes the stream synthetic)."""

    def describe(self) -> str:
        """One line for wherever the stream is shown."""
        named = [*self.departures, *(f"unregistered ({v})" for v in self.unregistered[:3])]
        more = len(self.unregistered) - 3
        if more > 0:
            named.append(f"+{more} more")
        return f"{self.shape}" + (f" ({'; '.join(named)})" if named else "")


class Shapes(Protocol):
    """What a dialect's `shapes` is: whatever tells a stream's shape and lists the
    departures it can name. `StreamShapes` is one (schema, grammar, detectors); a dialect
    whose streams carry another dialect's frames may delegate to that dialect's."""

    @property
    def departures(self) -> Mapping[str, Departure]:
        """Every registered departure, by id, in the order they are shown."""
        ...

    def of(self, stream: Sequence[JSON]) -> StreamShape:
        """The stream's shape, its departures and what no registered departure explains."""
        ...


Detector = Callable[[Sequence[JSON]], Iterable[int]]
"""The item numbers where a stream departs in one registered way (none: it does not)."""


@dataclass(frozen=True, eq=False)
class StreamShapes:
    """How one dialect tells a stream's shape."""

    schema: Mapping[str, Any]
    """The provider's JSON Schema of one stream item (a `oneOf` of the event schemas)."""
    grammar: tuple[GrammarLine, ...]
    departures: Mapping[str, Departure]
    """Every registered departure, by id, in the order they are shown."""
    detectors: Mapping[str, Detector]
    """A detector per departure id (every key is a departure)."""
    items: Callable[[Sequence[JSON]], Sequence[JSON]] = field(default=lambda items: items)
    """The provider frames of a stream as refold writes it (an events adapter's stream
    starts with a `begin` item that is the protocol's, not the provider's)."""
    wire: Mapping[FrameKind, str] | None = None
    """The departure of each kind of SSE framing departure (`refold.verdicts.wire_shapes`), for a
    dialect whose wire rules are checked on bytes; None: its bytes are not told."""
    framing: Callable[[Sequence[bytes]], Mapping[FrameKind, list[int]]] = field(
        default=framing_departures
    )
    """How the dialect's bytes depart from its documented framing, by kind: named SSE
    frames by default (`framing_departures`)."""
    end_sentinel: JSON = None
    """The item a protocol that writes the stream's framing as items (an events adapter's)
    puts where the dialect's documented end-of-stream marker arrived; None: the dialect
    has none. It is the framing's, never one of the dialect's items (`source_items`)."""

    def source_items(self, stream: Sequence[JSON]) -> Sequence[JSON]:
        """`stream` as a protocol writes it, without its last item when that is the
        dialect's end sentinel (which is documented framing, not an item)."""
        if self.end_sentinel is not None and stream and stream[-1] == self.end_sentinel:
            return stream[:-1]
        return stream

    def __post_init__(self) -> None:
        unknown = (set(self.detectors) | set((self.wire or {}).values())) - set(self.departures)
        if unknown:
            raise ValueError(f"detectors of unregistered departures: {sorted(unknown)}")

    @cached_property
    def _validator(self) -> Any:
        from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

        return Draft202012Validator(self.schema)

    def violations(self, stream: Sequence[JSON]) -> list[Violation]:
        """Every place the stream breaks the schema or a grammar line."""
        items = self.items(stream)
        found = schema_violations(self._validator, items)
        for line in self.grammar:
            found.extend(line.check(items))
        return sorted(found)

    def of(self, stream: Sequence[JSON]) -> StreamShape:
        """The stream's shape, its departures and what no registered departure explains."""
        items = self.items(stream)
        marked: dict[int, set[str]] = {}
        for departure_id, detect in self.detectors.items():
            for index in detect(items):
                marked.setdefault(index, set()).add(departure_id)
        found = {d for ids in marked.values() for d in ids}
        unregistered = tuple(v for v in self.violations(stream) if v.item not in marked)
        shapes: list[Shape] = [self.departures[d].shape for d in found]
        if unregistered:
            shapes.append("synthetic")
        return StreamShape(
            worst_shape(shapes), tuple(d for d in self.departures if d in found), unregistered
        )

    def of_wire(self, parts: Sequence[bytes]) -> StreamShape | None:
        """The shape of a stream's SSE framing (`refold.verdicts.wire_shapes`), its item layer
        aside; None when the dialect does not tell its bytes."""
        if self.wire is None:
            return None
        found = {self.wire[kind] for kind in self.framing(parts)}
        return StreamShape(
            worst_shape([self.departures[d].shape for d in found]),
            tuple(d for d in self.departures if d in found),
        )


def schema_violations(validator: Any, items: Sequence[JSON]) -> list[Violation]:
    """Every schema error of every item, at the item's number and the error's pointer."""
    found: list[Violation] = []
    for index, item in enumerate(items):
        for error in validator.iter_errors(item):
            where = "".join(
                "/" + str(p).replace("~", "~0").replace("/", "~1") for p in error.absolute_path
            )
            found.append(Violation(index, where, f"schema: {_short(error.message)}"))
    return found


def _short(message: str, limit: int = 160) -> str:
    return message if len(message) <= limit else message[: limit - 3] + "..."


def load_schema(package: str, name: str) -> Mapping[str, Any]:
    """A vendored schema file of a dialect's package (`schema/NAME`), parsed."""
    text = resources.files(package).joinpath("schema", name).read_text(encoding="utf-8")
    loaded: Mapping[str, Any] = json.loads(text)
    return loaded
