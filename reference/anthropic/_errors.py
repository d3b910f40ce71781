"""The errors the Anthropic Messages reference fold raises.

Two things can go wrong: an event that is not a JSON object (AM-ROB-NOT-OBJECT) and
reading the Message before a `message_start` was folded (AM-LIFE-EMPTY); the wire layer
adds event data that is not JSON. They subclass the shared event errors
(`refold.reference._errors`), so that code catching `ChunkTypeError` or `EmptyFoldError`
catches every dialect, and their messages name the AM rule.
"""

from __future__ import annotations

from .. import _errors

__all__ = ["EventDataError", "EventTypeError", "NoMessageError"]


class EventTypeError(_errors.EventTypeError):
    """An event was not a JSON object (rule AM-ROB-NOT-OBJECT); the fold is unchanged."""

    rule = "AM-ROB-NOT-OBJECT"
    api = "Anthropic Messages"


class NoMessageError(_errors.NoResultError):
    """`response()` was called before a `message_start` was folded (rule AM-LIFE-EMPTY)."""

    message = (
        "AM-LIFE-EMPTY: no message_start has been folded yet ({events} events received), "
        "so there is no Message to read; add a message_start event first"
    )


class EventDataError(_errors.EventDataError):
    """An SSE event's data was not JSON (wire feature `sse`), at the line it started on."""

    api = "Anthropic Messages"
