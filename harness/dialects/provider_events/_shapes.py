"""The shape of a provider-events stream: its source dialect's shape of its frames.

A provider-events stream is written as the protocol sends it, `{"begin": SOURCE}` and then
the frames of SOURCE (events.md §5), so it is documented, observed or synthetic exactly as
those frames are in SOURCE (verdicts.md §1): the `begin` item is the protocol's, not the
provider's, and is never a departure; nor is a last frame that is SOURCE's documented end
sentinel (`StreamShapes.end_sentinel`: Chat's `"[DONE]"`). `SourceShapes` looks the
source dialect's `shapes` up when asked, so a source dialect that registers its shapes
later (or a test that replaces them) is the one read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from refold.reference import JSON

from ...verdicts.shapes import Departure, Shapes, StreamShape, StreamShapes, Violation

__all__ = ["SourceShapes", "registered_shapes"]


def registered_shapes(source: str) -> Shapes | None:
    """The `shapes` of the registered dialect called `source` (None: none, or no such
    dialect), read from the registry at the time of the call."""
    from .. import DIALECTS  # the registry imports this package: looked up when asked

    found = DIALECTS.get(source)
    return found.shapes if found is not None else None


@dataclass(frozen=True)
class SourceShapes:
    """provider-events' `Shapes`: each stream's shape is its source dialect's shape of its
    frames, with item numbers counted in the stream as written (the `begin` item is 0)."""

    sources: tuple[str, ...]
    """The source dialects, in the order their departures are listed."""
    lookup: Callable[[str], Shapes | None] = registered_shapes
    """A source dialect's name → its shapes (None: it tells none)."""

    @property
    def departures(self) -> Mapping[str, Departure]:
        """Every departure a source dialect registers, by id, the sources in order."""
        found: dict[str, Departure] = {}
        for source in self.sources:
            shapes = self.lookup(source)
            for departure_id, departure in (shapes.departures if shapes else {}).items():
                found.setdefault(departure_id, departure)
        return found

    def of(self, stream: Sequence[JSON]) -> StreamShape:
        """The shape the source dialect gives the stream's frames; `synthetic` when the
        stream names no source, or one that tells no shapes (nothing of it can be shown
        documented, verdicts.md §1)."""
        head = stream[0] if stream else None
        source = head.get("begin") if isinstance(head, dict) and set(head) == {"begin"} else None
        if not isinstance(source, str):
            return StreamShape(
                "synthetic",
                (),
                (Violation(0, "", 'the stream does not start with {"begin": SOURCE}'),),
            )
        shapes = self.lookup(source)
        if shapes is None:
            return StreamShape(
                "synthetic",
                (),
                (Violation(0, "/begin", f"the source dialect {source} tells no stream shapes"),),
            )
        frames = list(stream[1:])
        if isinstance(shapes, StreamShapes):
            frames = list(shapes.source_items(frames))
        found = shapes.of(frames)
        return found._replace(
            unregistered=tuple(v._replace(item=v.item + 1) for v in found.unregistered)
        )
