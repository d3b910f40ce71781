"""The `openai-chat` dialect's stream shapes: OpenAI's vendored chunk schema, the
documented grammar and the registered departures (`refold.verdicts.shapes`)."""

from __future__ import annotations

from refold.verdicts.shapes import StreamShapes, load_schema

from ._departures import DEPARTURES, DETECTORS
from ._grammar import GRAMMAR

__all__ = ["CHAT_SHAPES"]

CHAT_SHAPES = StreamShapes(
    schema=load_schema(__package__ or "refold.dialects.openai_chat", "chat.completion.chunk.json"),
    grammar=GRAMMAR,
    departures={departure.id: departure for departure in DEPARTURES},
    detectors=DETECTORS,
    # OpenAI ends the stream with `data: [DONE]` (the chat streaming page), which
    # provider-events writes as the frame "[DONE]"
    end_sentinel="[DONE]",
)
"""How a chat stream's shape is told."""
