"""How an OpenAI Responses stream's shape is told (verdicts.md §1): OpenAI's published
schema of its stream events (`schema/response-stream-events.json`, from
openai/openai-openapi), the documented grammar (`_grammar`) and the registered departures
(`_departures`)."""

from __future__ import annotations

from refold.verdicts.shapes import StreamShapes

from ._departures import DEPARTURES, DETECTORS, WIRE
from ._grammar import GRAMMAR
from ._known import SCHEMA

__all__ = ["RESPONSES_SHAPES"]

RESPONSES_SHAPES = StreamShapes(
    schema=SCHEMA, grammar=GRAMMAR, departures=DEPARTURES, detectors=DETECTORS, wire=WIRE
)
"""The `openai-responses` dialect's stream shapes."""
