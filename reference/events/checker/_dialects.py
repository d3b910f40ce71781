"""The source dialects the checker reads, one row each (`SOURCES`), and how it reads them.

Each source dialect's reference package offers its `Source` (`refold.reference._neutral.
source`): how its frames are folded and end, the neutral view of its fold, its comparison,
the output tokens a frame reports and whether frames name their event type. They are
found there (`.._sources`), so adding a source dialect changes nothing here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..._compare import Difference
from ..._json import JSON, non_blank
from ..._neutral.ends import StreamEnd, arguments_value
from ..._neutral.source import Analysis, Source, View
from .._sources import SOURCE_DIALECTS

__all__ = [
    "DIALECTS",
    "DONE",
    "SOURCES",
    "Analysis",
    "StreamEnd",
    "View",
    "analyse",
    "arguments_value",
    "differences",
    "opaque_event_type",
    "reported_output_tokens",
    "view_of",
]

DONE = "[DONE]"
"""The Chat sentinel frame (events.md §4.1): the end of a stream, no event's opaque."""

SOURCES: Mapping[str, Source] = {name: d.reading for name, d in SOURCE_DIALECTS.items()}
"""Every source dialect the checker reads, by name: those refold has a reference fold for."""

DIALECTS: tuple[str, ...] = tuple(SOURCES)
"""The dialects the checker knows."""


def opaque_event_type(dialect: str, frame: JSON) -> str:
    """EV-OPAQUE-TYPE: the event name of the frame: its `type` in a dialect whose frames
    name it (Responses, Anthropic), else `message` (Chat lines and Gemini chunks have
    none)."""
    if SOURCES[dialect].typed_frames and isinstance(frame, dict):
        name = non_blank(frame.get("type"))
        if name is not None:
            return name
    return "message"


def reported_output_tokens(dialect: str, frame: JSON) -> int | None:
    """The output-token count a frame itself reports, or None (EV-USAGE-MONOTONE)."""
    if not isinstance(frame, dict):
        return None
    return SOURCES[dialect].output_tokens(frame)


def differences(dialect: str, expected: JSON, received: JSON) -> list[Difference]:
    """The dialect's canonical comparison of two dialect objects."""
    return SOURCES[dialect].differences(expected, received)


def view_of(dialect: str, folded: JSON) -> View | None:
    """The neutral view of a dialect object; None if it is not an object."""
    if not isinstance(folded, dict):
        return None
    return SOURCES[dialect].view(folded)


def analyse(dialect: str, frames: Sequence[JSON]) -> Analysis:
    """Fold `frames` with the dialect's reference and read how they end."""
    return SOURCES[dialect].analyse(frames)
