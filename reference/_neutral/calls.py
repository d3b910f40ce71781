"""One client-executed tool call on its way to ToolCallCompleted (events.md §2).

Shared by every dialect mapping: ToolCallStarted once both the id and the name are known
(EV-CALL-STARTED), argument fragments held until then and released in order right after
it, each with the frame it arrived in (EV-ARGS-BUFFER), an id started at most once per
turn (EV-IDS-SINGLE-USE), and no fragment after the completion (EV-NO-DELTA-AFTER-COMPLETED).
"""

from __future__ import annotations

from .._json import JSON, JSONObject
from .events import Event, arguments_delta, tool_call_completed, tool_call_started

__all__ = ["PendingCall"]

_JSON_WHITESPACE = " \t\n\r"


class PendingCall:
    """A call the dialect fold opened, with what the adapter has emitted for it."""

    __slots__ = ("_held", "blank", "completed", "id", "index", "length", "name")

    def __init__(self, index: int) -> None:
        self.index = index  # the dialect's correlation key (EV-CALL-ROUTE)
        self.id: str | None = None
        self.name: str | None = None
        self.completed = False
        self.length = 0  # characters of arguments attributed to the call so far
        self.blank = True  # every one of them is JSON whitespace
        self._held: list[tuple[str, JSON]] = []

    @property
    def started(self) -> bool:
        """True once ToolCallStarted was emitted."""
        return self.id is not None

    def take(
        self,
        appended: str,
        call_id: str | None,
        name: str | None,
        frame: JSON,
        started_ids: set[str],
    ) -> list[Event] | None:
        """The events of one fragment the fold applied to this call.

        `appended` is what the fold appended to the arguments ("" for nothing); `call_id`
        and `name` are the call's identity after the fragment. Returns None when the id
        was already started by another call of the turn (EV-IDS-SINGLE-USE).
        """
        if appended:  # EV-NO-EMPTY-DELTA: an empty fragment is no delta
            self.length += len(appended)
            self.blank = self.blank and not appended.strip(_JSON_WHITESPACE)
            self._held.append((appended, frame))  # EV-ARGS-BUFFER
        events: list[Event] = []
        if self.id is None and call_id is not None and name is not None:
            if call_id in started_ids:
                return None
            started_ids.add(call_id)
            self.id, self.name = call_id, name
            events.append(tool_call_started(call_id, name, frame))  # EV-CALL-STARTED
        if self.id is not None:
            events += [arguments_delta(self.id, delta, held) for delta, held in self._held]
            self._held.clear()  # EV-ARGS-DELTA, EV-CALL-IDENTITY: the started id
        return events

    def complete(self, arguments: JSONObject, frame: JSON) -> Event:
        """EV-ARGS-PARSED, EV-CALL-IDENTITY: the completed call, id and name as started."""
        assert self.id is not None  # only started calls complete
        assert self.name is not None
        self.completed = True
        return tool_call_completed(self.id, self.name, arguments, frame)
