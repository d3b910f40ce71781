"""What the checker reads of an OpenAI Chat Completions stream (events.md §4.1).

The chunks are folded once by the chat reference fold, and a second time without their
finish reasons, so that a call's arguments read as the characters appended
(EV-NO-DELTA-AFTER-COMPLETED). The stream ends at `[DONE]`, at the first error chunk
(EV-ERROR-FRAME), or at the end of the body: completed once choice 0 has a finish reason,
truncated otherwise (EV-TRUNCATED).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..._errors import RefoldError
from ..._json import JSON, JSONObject, non_blank, non_negative_int
from ..._neutral.ends import StreamEnd, arguments_value
from ..._neutral.source import Analysis, Source, View, arrived
from .. import Accumulator
from .._compare import differences
from ._calls import ChatCalls

__all__ = ["DONE", "SOURCE"]

DONE = "[DONE]"
"""The sentinel line that ends a Chat stream, as a frame."""

_STOPS = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "content_filter",
}


def _choice0(entries: JSON) -> list[JSONObject]:
    """The entries of a chunk's `choices` that belong to choice 0 (chat-fold CHOICE-KEY)."""
    if not isinstance(entries, list):
        return []
    return [
        e for e in entries if isinstance(e, dict) and (non_negative_int(e.get("index")) or 0) == 0
    ]


def _finishes(frame: JSONObject) -> bool:
    return any(
        non_blank(e.get("finish_reason")) not in (None, "error")
        for e in _choice0(frame.get("choices"))
    )


def _several(frame: JSONObject) -> bool:
    entries = frame.get("choices")
    return isinstance(entries, list) and any(
        isinstance(e, dict) and (non_negative_int(e.get("index")) or 0) > 0 for e in entries
    )


def _analyse(frames: Sequence[JSON]) -> Analysis:
    fold, calls = Accumulator(), ChatCalls()
    raw = Accumulator()  # never finished: its calls show the arguments as streamed
    end: StreamEnd | None = None
    finished = several = False
    finish_frames: set[int] = set()
    for number, frame in enumerate(frames):
        if frame == DONE:
            fold.mark_done()
            end = (
                _settled_at(calls, raw, number)
                if finished
                else StreamEnd("truncated", number, number)
            )
            break
        if not isinstance(frame, dict):
            continue
        if isinstance(frame.get("error"), dict):
            end = StreamEnd("provider_error", number, number + 1)
            break
        fold.add(frame)
        raw.add(_unfinished(frame))
        several = several or _several(frame)
        end = calls.changed(_calls(raw), number)
        if end is None and _finishes(frame):
            finish_frames.add(number)
            finished = True
            end = calls.settle(_calls(raw), number, number)
        if end is not None:
            break
    if end is None:
        end = (
            (
                calls.settle(_calls(raw), None, len(frames))
                or StreamEnd("completed", None, len(frames))
            )
            if finished
            else StreamEnd("truncated", None, len(frames))
        )
    folded = _response(fold)
    return Analysis(
        end,
        folded,
        arrived(_view(folded) if folded is not None else None, calls.order, None),
        several_choices=several,
        finish_frames=frozenset(finish_frames),
    )


def _settled_at(calls: ChatCalls, raw: Accumulator, number: int) -> StreamEnd:
    """The end at `[DONE]` after choice 0 finished: completed unless a call is not."""
    return calls.settle(_calls(raw), number, number) or StreamEnd("completed", number, number)


def _unfinished(frame: JSONObject) -> JSONObject:
    """The chunk without finish reasons: a fold of these never applies TOOL-EMPTY-ARGS,
    so a call's arguments read as the characters appended (EV-NO-DELTA-AFTER-COMPLETED)."""
    entries = frame.get("choices")
    if not isinstance(entries, list):
        return frame
    return {
        **frame,
        "choices": [
            {k: v for k, v in e.items() if k != "finish_reason"} if isinstance(e, dict) else e
            for e in entries
        ],
    }


def _calls(fold: Accumulator) -> list[JSONObject]:
    calls = _message(_response(fold) or {}).get("tool_calls")
    return [call for call in calls or [] if isinstance(call, dict)]


def _response(fold: Accumulator) -> JSONObject | None:
    try:
        return fold.response()
    except RefoldError:
        return None  # LIFE-EMPTY: nothing to fold


def _message(response: JSONObject) -> JSONObject:
    for choice in response.get("choices") or []:
        if isinstance(choice, dict) and choice.get("index") == 0:
            message = choice.get("message")
            return {
                **(message if isinstance(message, dict) else {}),
                "finish_reason": choice.get("finish_reason"),
            }
    return {}


def _view(response: JSONObject) -> View:
    message = _message(response)
    calls = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        text = function.get("arguments")
        calls.append(
            {
                "id": call.get("id"),
                "name": function.get("name"),
                "arguments": arguments_value(text) if isinstance(text, str) else text,
            }
        )
    content = message.get("content")
    finish = message.get("finish_reason")
    return View(
        response.get("model"),
        response.get("id"),
        content if isinstance(content, str) else "",
        calls,
        _STOPS.get(finish, "other") if isinstance(finish, str) else "other",
    )


def _output_tokens(frame: JSONObject) -> int | None:
    """The chunk's `usage.completion_tokens`."""
    usage = frame.get("usage")
    return non_negative_int(usage.get("completion_tokens")) if isinstance(usage, dict) else None


SOURCE = Source(
    analyse=_analyse,
    view=_view,
    differences=differences,
    output_tokens=_output_tokens,
    typed_frames=False,
)
"""How the checker reads an `openai-chat` stream."""
