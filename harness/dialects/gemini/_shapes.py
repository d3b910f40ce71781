"""How a Gemini stream's shape is told (verdicts.md §1): the schema transcribed from
Google's API reference (`schema/generate-content-response.json`), the documented grammar
(`_grammar`), the registered departures (`_departures`) and, for a body, its framing
(`framing.wire_departures`)."""

from __future__ import annotations

from refold.verdicts.shapes import StreamShapes

from ._departures import DEPARTURES, DETECTORS, WIRE
from ._grammar import GRAMMAR
from ._known import SCHEMA
from .framing import wire_departures

__all__ = ["GEMINI_SHAPES"]

GEMINI_SHAPES = StreamShapes(
    schema=SCHEMA,
    grammar=GRAMMAR,
    departures=DEPARTURES,
    detectors=DETECTORS,
    wire=WIRE,
    framing=wire_departures,
)
"""The `gemini-generate-content` dialect's stream shapes."""
