"""The errors the OpenAI Responses reference fold raises.

Two things can go wrong: an event that is not a JSON object (RS-NOT-OBJECT) and reading
the Response before any event was folded (LIFE-RS-EMPTY); the wire layer adds event data
that is not JSON. They subclass the shared event errors (`refold.reference._errors`), so
that code catching `ChunkTypeError` or `EmptyFoldError` catches every dialect, and their
messages name the rule.
"""

from __future__ import annotations

from .. import _errors

__all__ = ["EventDataError", "EventTypeError", "NoResponseError"]


class EventTypeError(_errors.EventTypeError):
    """An event was not a JSON object (rule RS-NOT-OBJECT); the fold is unchanged."""

    rule = "RS-NOT-OBJECT"
    api = "OpenAI Responses"


class NoResponseError(_errors.NoResultError):
    """`response()` was called before any event was folded (rule LIFE-RS-EMPTY)."""

    message = (
        "LIFE-RS-EMPTY: no event has been folded yet ({events} refused), so there is "
        "no Response to read; add a response.created (or any event object) first"
    )


class EventDataError(_errors.EventDataError):
    """An SSE event's data was not JSON (wire feature `sse`), at the line it started on."""

    api = "OpenAI Responses"
