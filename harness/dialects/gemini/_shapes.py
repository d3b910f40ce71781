"""How a Gemini stream's shape is told (verdicts.md §1): the schema transcribed from
Google's API reference (`schema/generate-content-response.json`), the documented grammar
(`_grammar`) and the registered departures (`_departures`)."""

from __future__ import annotations

from refold.verdicts.shapes import StreamShapes

from ._departures import DEPARTURES, DETECTORS
from ._grammar import GRAMMAR
from ._known import SCHEMA

__all__ = ["GEMINI_SHAPES"]

GEMINI_SHAPES = StreamShapes(
    schema=SCHEMA, grammar=GRAMMAR, departures=DEPARTURES, detectors=DETECTORS
)
"""The `gemini-generate-content` dialect's stream shapes."""
