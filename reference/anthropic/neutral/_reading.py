"""What the checker reads of an Anthropic Messages stream (events.md §4.3).

The events are folded once by the Anthropic reference fold; the text is read in the order
it arrived and each tool block is tracked to its stop (`MessageCalls`). The stream ends
at the first `error` event (EV-ERROR-FRAME), at a `message_stop` that finishes the fold,
or at the end of the body (EV-TRUNCATED).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..._errors import RefoldError
from ..._json import JSON, JSONObject, non_negative_int
from ..._neutral.ends import StreamEnd
from ..._neutral.source import Analysis, Source, View, arrived
from .. import Accumulator, differences
from ._calls import MessageCalls, TextArrival

__all__ = ["SOURCE"]

_STOPS = frozenset({"end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal"})


def _analyse(frames: Sequence[JSON]) -> Analysis:
    fold, calls, arrival = Accumulator(), MessageCalls(), TextArrival()
    end: StreamEnd | None = None
    for number, frame in enumerate(frames):
        if not isinstance(frame, dict):
            continue
        kind = frame.get("type")
        if kind == "error":
            end = StreamEnd("provider_error", number, number + 1)
            break
        fold.add(frame)
        arrival.see(_texts(_response(fold)))
        if kind == "message_stop" and fold.finished:
            end = calls.finish(number) or StreamEnd("completed", number, number)
            break
        end = calls.track(frame, number)
        if end is not None:
            break
    if end is None:
        end = StreamEnd("truncated", None, len(frames))
    folded = _response(fold)
    return Analysis(
        end,
        folded,
        arrived(_view(folded) if folded is not None else None, calls.order, arrival.text),
        several_choices=False,
    )


def _response(fold: Accumulator) -> JSONObject | None:
    try:
        return fold.response()
    except RefoldError:
        return None  # AM-LIFE-EMPTY: nothing to fold


def _texts(message: JSONObject | None) -> list[str]:
    return [
        block["text"]
        for block in (message or {}).get("content") or []
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]


def _view(message: JSONObject) -> View:
    text: list[str] = []
    calls: list[JSONObject] = []
    for block in message.get("content") or []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            text.append(block["text"])
        elif block.get("type") == "tool_use":
            # no input at all, or the start's "" left standing (AM-TOOL-NO-DELTA), is the
            # empty object (EV-ARGS-EMPTY-OBJECT)
            value = block.get("input")
            calls.append(
                {
                    "id": block.get("id"),
                    "name": block.get("name"),
                    "arguments": {} if value is None or value == "" else value,
                }
            )
    stop = message.get("stop_reason")
    return View(
        message.get("model"),
        message.get("id"),
        "".join(text),
        calls,
        stop if stop in _STOPS else "other",
    )


def _output_tokens(frame: JSONObject) -> int | None:
    """`message_start.message.usage.output_tokens` or `message_delta.usage.output_tokens`."""
    holder = (
        frame.get("message")
        if frame.get("type") == "message_start"
        else (frame if frame.get("type") == "message_delta" else None)
    )
    usage = holder.get("usage") if isinstance(holder, dict) else None
    return non_negative_int(usage.get("output_tokens")) if isinstance(usage, dict) else None


SOURCE = Source(
    analyse=_analyse,
    view=_view,
    differences=differences,
    output_tokens=_output_tokens,
    typed_frames=True,
)
"""How the checker reads an `anthropic-messages` stream."""
