"""The turn against the dialect fold: fields, text and calls, stop reason, lossless opaque.

The expected values come from the known completion when one is given (the oracle a
strategy drew the frames from), else from the reference fold of the frames. The checks
run only on a completed turn of frames that end well: a turn of a truncated stream is
EV-TRUNCATED's, not a contradiction of the fold.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..._json import JSON, JSONObject, json_equal
from ._context import Stream
from ._dialects import View, differences
from ._grammar import STOP_REASONS
from ._violation import Violation, impact_between

__all__ = ["ev_fold_agrees", "ev_stop_map", "ev_stop_tool", "ev_turn_fields", "ev_turn_opaque"]


def _show(value: JSON, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _checked(stream: Stream) -> tuple[int, JSONObject, View] | None:
    turn = stream.turn
    if turn is None or stream.expected is None or stream.analysis.end.kind != "completed":
        return None
    return turn[0], turn[1], stream.expected


def _source(stream: Stream) -> str:
    return (
        "the fold of the frames"
        if stream.expected is stream.analysis.view
        else "the known completion"
    )


def ev_turn_fields(stream: Stream) -> Iterator[Violation]:
    """EV-TURN-FIELDS: provider is the adapter's, model and response_id the provider's."""
    found = _checked(stream)
    if found is None:
        return
    number, turn, view = found
    expected = {"model": view.model, "response_id": view.response_id}
    if stream.provider is not None:
        expected["provider"] = stream.provider
    for key, value in expected.items():
        if key == "model" and value is None:
            continue  # no frame named a model: nothing to hold the turn's to
        if turn.get(key) != value:
            yield Violation(
                "EV-TURN-FIELDS",
                f"turn {key} is {_show(turn.get(key))}, "
                f"expected {_show(value)} ({_source(stream)})",
                event=number,
                pointer=f"/turn/{key}",
                impact=impact_between(value, turn.get(key)),
            )


def ev_fold_agrees(stream: Stream) -> Iterator[Violation]:
    """EV-FOLD-AGREES: output_text and tool_calls (arguments parsed) agree with the fold."""
    found = _checked(stream)
    if found is None:
        return
    number, turn, view = found
    for key, value in (("output_text", view.output_text), ("tool_calls", view.tool_calls)):
        if key in turn and not json_equal(turn[key], value):
            yield Violation(
                "EV-FOLD-AGREES",
                f"turn {key} is {_show(turn[key])}, but {_source(stream)} gives {_show(value)}",
                event=number,
                pointer=f"/turn/{key}",
                impact=impact_between(value, turn[key]),
            )


def _stop(stream: Stream) -> tuple[int, JSON, str, str] | None:
    """(event, received, mapped, expected) of the stop reason, or None if not checked."""
    found = _checked(stream)
    if found is None:
        return None
    number, turn, view = found
    if turn.get("stop_reason") not in STOP_REASONS:
        return None  # EV-GRAMMAR's
    calls = turn.get("tool_calls")
    expected = "tool_use" if view.stop_reason == "end_turn" and calls else view.stop_reason
    return number, turn.get("stop_reason"), view.stop_reason, expected


def ev_stop_map(stream: Stream) -> Iterator[Violation]:
    """EV-STOP-MAP: stop_reason is the provider's terminal value through §4's table."""
    found = _stop(stream)
    if found is not None and found[1] != found[3] and found[2] == found[3]:
        yield Violation(
            "EV-STOP-MAP",
            f"stop_reason is {_show(found[1])}, expected {found[3]!r} from {_source(stream)}",
            event=found[0],
            pointer="/turn/stop_reason",
        )


def ev_stop_tool(stream: Stream) -> Iterator[Violation]:
    """EV-STOP-TOOL: a mapped end_turn with tool calls is tool_use."""
    found = _stop(stream)
    if found is not None and found[1] != found[3] and found[2] != found[3]:
        yield Violation(
            "EV-STOP-TOOL",
            f"stop_reason is {_show(found[1])} with tool calls "
            f"in the turn; expected 'tool_use' (the provider said end_turn)",
            event=found[0],
            pointer="/turn/stop_reason",
        )


def ev_turn_opaque(stream: Stream) -> Iterator[Violation]:
    """EV-TURN-OPAQUE: T.opaque is the dialect fold of the frames (when claimed)."""
    turn, folded = stream.turn, stream.analysis.folded
    if (
        not stream.turn_opaque
        or turn is None
        or folded is None
        or stream.analysis.end.kind != "completed"
    ):
        return
    for difference in differences(stream.dialect, folded, turn[1].get("opaque")):
        where = "/turn/opaque" + difference.pointer
        yield Violation(
            "EV-TURN-OPAQUE",
            f"turn opaque differs from the dialect fold of the frames {difference}",
            event=turn[0],
            pointer=where,
            impact=impact_between(difference.expected, difference.received),
        )
