"""Choice 0's calls in the chat fold's response, settled at each boundary, and the end
they call for (refold.reference._neutral.ends, "how the frames of a stream end")."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..._json import JSON, JSONObject, non_blank
from ..._neutral.ends import StreamEnd, arguments_value

__all__ = ["ChatCalls"]


@dataclass
class ChatCalls:
    """Choice 0's calls in the chat fold's response, settled at each boundary."""

    settled: dict[str, JSON] = field(default_factory=dict)  # id -> arguments text

    @property
    def order(self) -> list[str]:
        """The ids of the calls completed so far, in the order they completed."""
        return list(self.settled)

    def changed(self, calls: list[JSONObject], number: int) -> StreamEnd | None:
        """A call settled at an earlier boundary whose arguments the fold has grown, or
        a second call announced with an id already in use."""
        named = [
            _chat_id(call)
            for call in calls
            if _chat_id(call) is not None
            and non_blank((call.get("function") or {}).get("name")) is not None
        ]
        if len(set(named)) != len(named):
            return StreamEnd("unsupported", number, number, None, "EV-IDS-SINGLE-USE")
        for call in calls:
            call_id = _chat_id(call)
            if call_id in self.settled and _text(call) != self.settled[call_id]:
                return StreamEnd(
                    "inconsistent_tool_arguments",
                    number,
                    number + 1,
                    call_id,
                    "EV-NO-DELTA-AFTER-COMPLETED",
                )
        return None

    def settle(self, calls: list[JSONObject], number: int | None, cover: int) -> StreamEnd | None:
        """Complete every call not settled yet (a finish frame, `[DONE]`, the end of the
        body), in the fold's order: the end of the first that cannot complete."""
        for call in calls:
            call_id, text = _chat_id(call), _text(call)
            name = non_blank((call.get("function") or {}).get("name"))
            # a settled call had a name: a nameless one under its id is another call
            # (a new id at its index took over, TOOL-2-NEW-ID), which never started
            if call_id is not None and call_id in self.settled and name is not None:
                continue
            if call_id is None or name is None:
                return StreamEnd("unsupported", number, cover, call_id, "EV-CALL-STARTED")
            if isinstance(text, str) and arguments_value(text) is None:
                return StreamEnd("invalid_tool_arguments", number, cover, call_id)
            self.settled[call_id] = text
        return None


def _chat_id(call: JSONObject) -> str | None:
    return non_blank(call.get("id"))


def _text(call: JSONObject) -> JSON:
    function = call.get("function")
    return function.get("arguments") if isinstance(function, dict) else None
