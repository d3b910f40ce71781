"""Stop reason, stop sequence, stop details and container: set by message_delta's `delta`.

Each is "last non-blank": a blank value never erases an earlier one (AM-STOP-REASON [ext]:
the Message docs say the stop reason is null only in message_start).
"""

from __future__ import annotations

from .._json import JSON, JSONObject, copy_json, non_blank, object_or_none

__all__ = ["Stop"]

_UNSET = object()


class Stop:
    """The Message's stop fields, as far as the stream got."""

    __slots__ = ("_container", "_reason", "_sequence", "_stop_details")

    def __init__(self) -> None:
        self._reason: str | None = None
        self._sequence: JSON = _UNSET  # unset: message_start's `stop_sequence` stands
        self._stop_details: JSONObject | None = None
        self._container: JSONObject | None = None

    def start(self, message: JSONObject) -> None:
        """AM-STOP-REASON: the stop reason starts as message_start's (blank: null)."""
        self._reason = non_blank(message.get("stop_reason"))

    def delta(self, delta: JSONObject) -> None:
        """Fold one message_delta's `delta` object."""
        reason = non_blank(delta.get("stop_reason"))
        if reason is not None:
            self._reason = reason  # AM-STOP-REASON: kept verbatim, never mapped
            sequence = delta.get("stop_sequence")
            # AM-STOP-SEQUENCE: the sequence of the delta that last set the reason
            self._sequence = sequence if isinstance(sequence, str) else None
        stop_details = object_or_none(delta.get("stop_details"))
        if stop_details is not None:
            self._stop_details = stop_details  # AM-STOP-DETAILS
        container = object_or_none(delta.get("container"))
        if container is not None:
            self._container = container  # AM-CONTAINER

    def write(self, message: JSONObject) -> None:
        """Write the stop fields into the Message being built."""
        message["stop_reason"] = self._reason
        if self._sequence is not _UNSET:
            message["stop_sequence"] = self._sequence
        if self._stop_details is not None:
            message["stop_details"] = copy_json(self._stop_details)
        if self._container is not None:
            message["container"] = copy_json(self._container)
