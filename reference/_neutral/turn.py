"""The turn fold: neutral events in, one `ProviderTurn` out (events.md §2).

The portable fields come from the events alone: `output_text` joins every TextDelta
(EV-TEXT-CONSERVE), `tool_calls` are the completed calls (EV-TURN-CALLS), `usage` is the
last Usage (EV-USAGE-LAST, EV-USAGE-UNREPORTED). What no delta event carries (provider,
model, response id, stop reason, the dialect fold) is the Completed event's. The fold never
reads an `opaque` or a `payload`, so nulling them changes nothing (PERSIST-NO-SEMANTICS),
and folding stripped events gives the stripped turn (PERSIST-PORTABLE).
"""

from __future__ import annotations

from collections.abc import Iterable

from .._errors import RefoldError
from .._json import JSON, JSONObject, copy_json
from .events import unreported_usage

__all__ = ["NoTurnError", "TurnFold", "fold_turn", "reconciled_stop"]


class NoTurnError(RefoldError, LookupError):
    """`fold_turn` was given events without a Completed (EV-NO-COMPLETED-ON-ERROR)."""

    def __init__(self, *, events: int) -> None:
        super().__init__(
            f"EV-COMPLETED-LAST: the {events} events given hold no Completed event, so they "
            f"fold to no turn (a stream whose outcome is error has none); expected the "
            f"events of a completed stream, Completed last"
        )


def reconciled_stop(stop_reason: JSON, tool_calls: list[JSONObject]) -> JSON:
    """EV-STOP-TOOL: a turn with calls that the provider ended as `end_turn` is `tool_use`."""
    return "tool_use" if tool_calls and stop_reason == "end_turn" else stop_reason


class TurnFold:
    """Folds events one at a time; `turn(...)` builds the ProviderTurn as a new value."""

    __slots__ = ("_calls", "_completed", "_text", "_usage")

    def __init__(self) -> None:
        self._text: list[str] = []
        self._calls: list[JSONObject] = []
        self._usage: JSONObject | None = None
        self._completed: JSONObject | None = None

    def add(self, event: JSON) -> None:
        """Fold one event; values of the wrong shape are skipped, never raised on."""
        if not isinstance(event, dict):
            return
        kind = event.get("type")
        if kind == "TextDelta" and isinstance(event.get("delta"), str):
            self._text.append(event["delta"])  # EV-TEXT-CONSERVE
        elif kind == "ToolCallCompleted" and isinstance(event.get("call"), dict):
            # EV-TURN-CALLS: each completed call once, in the order the adapter completed
            # them, which the reference keeps equal to the dialect fold's order
            self._calls.append(copy_json(event["call"]))
        elif kind == "Usage" and isinstance(event.get("usage"), dict):
            self._usage = copy_json(event["usage"])  # EV-USAGE-LAST: replaced whole
        elif kind == "Completed" and isinstance(event.get("turn"), dict):
            self._completed = event["turn"]

    @property
    def output_text(self) -> str:
        """The public text so far (EV-TEXT-CONSERVE)."""
        if len(self._text) > 1:
            self._text[:] = ["".join(self._text)]
        return self._text[0] if self._text else ""

    def turn(
        self, *, provider: JSON, model: JSON, response_id: JSON, stop_reason: JSON, opaque: JSON
    ) -> JSONObject:
        """The ProviderTurn of the events so far, with the fields no delta event carries."""
        tool_calls = copy_json(self._calls)
        return {
            "provider": provider,  # EV-TURN-FIELDS
            "model": model,
            "response_id": response_id,
            "output_text": self.output_text,
            "tool_calls": tool_calls,
            "stop_reason": reconciled_stop(stop_reason, tool_calls),  # EV-STOP-MAP, -TOOL
            "usage": unreported_usage() if self._usage is None else copy_json(self._usage),
            "opaque": opaque,  # EV-TURN-OPAQUE
        }

    def completed_turn(self, *, events: int) -> JSONObject:
        """The turn of the last Completed folded, its portable fields refolded.

        Keys the Completed turn lacks (a stripped `response_id`, `opaque`) stay absent.

        Raises:
            NoTurnError: no Completed event was folded.
        """
        if self._completed is None:
            raise NoTurnError(events=events)
        header = self._completed
        turn = self.turn(
            provider=header.get("provider"),
            model=header.get("model"),
            response_id=copy_json(header.get("response_id")),
            stop_reason=header.get("stop_reason"),
            opaque=copy_json(header.get("opaque")),
        )
        return {
            key: value
            for key, value in turn.items()
            if key in header or key not in ("response_id", "opaque")
        }


def fold_turn(events: Iterable[JSON]) -> JSONObject:
    """Fold the events of one completed stream into its ProviderTurn, as a new value.

    Raises:
        NoTurnError: the events hold no Completed (the stream's outcome was error).
    """
    fold = TurnFold()
    count = 0
    for event in events:
        fold.add(event)
        count += 1
    return fold.completed_turn(events=count)
