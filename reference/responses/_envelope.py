"""The Response's envelope: lifecycle responses, the terminal response, and the result.

A finished fold is its terminal event's `response` (RS-TERMINAL-BASE), with the keys it
left out supplied by the lifecycle responses before it (RS-ENV-FILL) and its output by
the stream when it sent none (RS-OUTPUT-RECOVER). An unfinished one is a snapshot: the
latest lifecycle response with the streamed items (LIFE-RS-SNAPSHOT).
"""

from __future__ import annotations

from .._json import JSON, JSONObject, copy_json, non_blank
from ._routing import Items

__all__ = ["LIFECYCLE_EVENTS", "TERMINAL_EVENTS", "Envelope"]

LIFECYCLE_EVENTS = frozenset({"response.created", "response.queued", "response.in_progress"})

TERMINAL_EVENTS: dict[str, str] = {
    "response.completed": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
}
"""RS-TERMINAL-EVENTS: the terminal event types and the status each stands for."""

_RECOVERED_STATUS = {"completed": "completed", "incomplete": "incomplete", "failed": "incomplete"}
"""RS-RECOVER-STATUS: what an unfinished item reads after each terminal event."""


class Envelope:
    """The lifecycle and terminal responses folded so far."""

    __slots__ = ("_fill", "_latest", "_terminal")

    def __init__(self) -> None:
        self._latest: JSONObject | None = None  # LIFE-RS-SNAPSHOT: the latest lifecycle one
        self._fill: dict[str, JSON] = {}  # RS-ENV-FILL: latest non-null value, key by key
        # the terminal response, the status its event stands for, the fill before it
        self._terminal: tuple[JSONObject, str, dict[str, JSON]] | None = None

    @property
    def finished(self) -> bool:
        """LIFE-RS-FINISHED: a terminal event arrived."""
        return self._terminal is not None

    def lifecycle(self, response: JSON) -> None:
        """Fold the `response` of response.created, .queued or .in_progress."""
        if not isinstance(response, dict):
            return  # RS-WRONG-TYPE: changes nothing
        self._latest = response
        for key, value in response.items():
            if value is not None:
                self._fill[key] = value

    def terminal(self, event_type: str, response: JSON) -> None:
        """Fold the `response` of a terminal event; a later one replaces it whole
        (RS-TERMINAL-REPEAT: nothing summed)."""
        if not isinstance(response, dict):
            return  # RS-WRONG-TYPE: finishes nothing
        # RS-ENV-FILL: the lifecycle responses before it
        self._terminal = (response, TERMINAL_EVENTS[event_type], dict(self._fill))

    def result(self, items: Items) -> JSONObject:
        """The Response as a new value (LIFE-RS-SNAPSHOT: every read is a new object)."""
        if self._terminal is None:
            return self._snapshot(items)
        terminal, status, fill = self._terminal
        # RS-TERMINAL-BASE, RS-ENV-TERMINAL, RS-INCOMPLETE, RS-FAILED: every key as sent
        response: JSONObject = dict(terminal)  # shallow: copied whole below
        output = response.pop("output", None)
        if non_blank(response.get("status")) is None:
            # [decision] a terminal without a status has the one its event stands for
            # (RS-TERMINAL-EVENTS, RS-FAILED), never a lifecycle in_progress
            response["status"] = status
        for key, value in fill.items():
            if response.get(key) is None:
                # RS-ENV-FILL, RS-USAGE-TERMINAL (a lifecycle `output` is overwritten below)
                response[key] = value
        response = copy_json(response)
        response["object"] = "response"  # RS-OBJECT
        if isinstance(output, list) and output:
            response["output"] = copy_json(output)  # RS-OUTPUT-TERMINAL: whole, not merged
        else:
            # RS-OUTPUT-RECOVER ([] when nothing was streamed); RS-WRONG-TYPE: a non-list is absent
            response["output"] = items.output(_RECOVERED_STATUS[status])
        return response

    def _snapshot(self, items: Items) -> JSONObject:
        """LIFE-RS-SNAPSHOT: the latest lifecycle response, the items as they stand."""
        latest = self._latest
        response: JSONObject = (
            {"status": "in_progress"}
            if latest is None
            else {key: copy_json(value) for key, value in latest.items()}
        )
        response["object"] = "response"  # RS-OBJECT
        response["output"] = items.output(None)  # statuses as announced, the sent one replaced
        return response
