"""What the checker needs to know of a dialect: how its frames end and what they fold to.

For each dialect the frames are folded once by that dialect's reference
(`refold.reference`, `refold.reference.anthropic`), and read for the three things the
event rules are checked against: how the stream ended (`StreamEnd`: which outcome the
frames call for, at which frame), the dialect object (EV-TURN-OPAQUE) and its neutral
view (`View`: EV-FOLD-AGREES, EV-TURN-FIELDS, EV-STOP-MAP).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ... import RefoldError
from ..._compare import Difference
from ..._json import JSON, JSONObject, non_blank, non_negative_int
from ...anthropic import Accumulator as MessageAccumulator
from ...anthropic import differences as message_differences
from ...chat import Accumulator as ChatAccumulator
from ...chat._compare import differences as chat_differences
from ...gemini import differences as gemini_differences
from ...responses import differences as response_differences
from ._ends import ChatCalls, MessageCalls, StreamEnd, TextArrival, arguments_value
from ._gemini import gemini_output_tokens, gemini_view, read_gemini
from ._responses import read_responses, responses_output_tokens, responses_view

__all__ = [
    "DIALECTS",
    "Analysis",
    "StreamEnd",
    "View",
    "analyse",
    "arguments_value",
    "opaque_event_type",
    "reported_output_tokens",
]

DIALECTS = ("openai-chat", "openai-responses", "anthropic-messages", "gemini-generate-content")
"""The dialects the checker knows: those refold has a reference fold for."""

DONE = "[DONE]"
GEMINI = "gemini-generate-content"
_CHAT_STOPS = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "content_filter",
}
_MESSAGE_STOPS = frozenset(
    {"end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal"}
)


@dataclass(frozen=True)
class View:
    """The neutral view of a dialect object: what a correct turn of it holds."""

    model: JSON
    response_id: JSON
    output_text: str
    tool_calls: list[JSONObject]
    stop_reason: str


@dataclass(frozen=True)
class Analysis:
    """The frames of one stream read once: their end, their fold and its view."""

    end: StreamEnd
    folded: JSONObject | None
    view: View | None
    several_choices: bool
    finish_frames: frozenset[int] = frozenset()
    """Chat: the frames that give choice 0 a finish reason (EV-CHAT-COMPLETE-AT-FINISH).
    Several, when an earlier one is chat-fold's family 8 noise (finish_reason is
    last-wins): a frame-by-frame adapter cannot know a later one will come."""


def opaque_event_type(dialect: str, frame: JSON) -> str:
    """EV-OPAQUE-TYPE: the event name of the frame; Chat lines have none (`message`);
    Responses and Anthropic events use their `type`; Gemini sends no event names."""
    if dialect not in ("openai-chat", GEMINI) and isinstance(frame, dict):
        name = non_blank(frame.get("type"))
        if name is not None:
            return name
    return "message"


def reported_output_tokens(dialect: str, frame: JSON) -> int | None:
    """The output-token count a frame itself reports, or None (EV-USAGE-MONOTONE).

    Chat: the chunk's `usage.completion_tokens`; Anthropic: `message_start.message.usage`
    or `message_delta.usage`, `output_tokens`."""
    if not isinstance(frame, dict):
        return None
    if dialect == "openai-responses":
        return responses_output_tokens(frame)
    if dialect == GEMINI:
        return gemini_output_tokens(frame)
    if dialect == "anthropic-messages":
        holder = (
            frame.get("message")
            if frame.get("type") == "message_start"
            else (frame if frame.get("type") == "message_delta" else None)
        )
        usage = holder.get("usage") if isinstance(holder, dict) else None
        key = "output_tokens"
    else:
        usage, key = frame.get("usage"), "completion_tokens"
    return non_negative_int(usage.get(key)) if isinstance(usage, dict) else None


def differences(dialect: str, expected: JSON, received: JSON) -> list[Difference]:
    """The dialect's canonical comparison of two dialect objects."""
    if dialect == "anthropic-messages":
        return message_differences(expected, received)
    if dialect == "openai-responses":
        return response_differences(expected, received)
    if dialect == GEMINI:
        return gemini_differences(expected, received)
    return chat_differences(expected, received)


def view_of(dialect: str, folded: JSON) -> View | None:
    """The neutral view of a `chat.completion` or a `Message`; None if it is not an object."""
    if not isinstance(folded, dict):
        return None
    if dialect == "anthropic-messages":
        return _message_view(folded)
    if dialect == "openai-responses":
        return View(*responses_view(folded))
    if dialect == GEMINI:
        return View(*gemini_view(folded))
    return _chat_view(folded)


def analyse(dialect: str, frames: Sequence[JSON]) -> Analysis:
    """Fold `frames` with the dialect's reference and read how they end."""
    if dialect == "anthropic-messages":
        return _analyse_messages(frames)
    if dialect == "openai-responses":
        read = read_responses(frames)
        view = _arrived(view_of(dialect, read.folded), read.order, read.text)
        return Analysis(
            read.end,
            read.folded,
            view if view is None else replace(view, tool_calls=read.calls),
            several_choices=False,
        )
    if dialect == GEMINI:
        gemini = read_gemini(frames)
        return Analysis(
            gemini.end,
            gemini.folded,
            _arrived(view_of(dialect, gemini.folded), gemini.order, None),
            several_choices=gemini.several,
        )
    return _analyse_chat(frames)


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


def _analyse_chat(frames: Sequence[JSON]) -> Analysis:
    fold, calls = ChatAccumulator(), ChatCalls()
    raw = ChatAccumulator()  # never finished: its calls show the arguments as streamed
    end: StreamEnd | None = None
    finished = several = False
    finish_frames: set[int] = set()
    for number, frame in enumerate(frames):
        if frame == DONE:
            fold.mark_done()
            end = (
                (
                    calls.settle(_chat_calls(raw), number, number)
                    or StreamEnd("completed", number, number)
                )
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
        end = calls.changed(_chat_calls(raw), number)
        if end is None and _finishes(frame):
            finish_frames.add(number)
            finished = True
            end = calls.settle(_chat_calls(raw), number, number)
        if end is not None:
            break
    if end is None:
        end = (
            (
                calls.settle(_chat_calls(raw), None, len(frames))
                or StreamEnd("completed", None, len(frames))
            )
            if finished
            else StreamEnd("truncated", None, len(frames))
        )
    folded = _response(fold)
    return Analysis(
        end,
        folded,
        _arrived(view_of("openai-chat", folded), calls.order, None),
        several_choices=several,
        finish_frames=frozenset(finish_frames),
    )


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


def _chat_calls(fold: ChatAccumulator) -> list[JSONObject]:
    calls = _chat_message(_response(fold) or {}).get("tool_calls")
    return [call for call in calls or [] if isinstance(call, dict)]


def _response(fold: ChatAccumulator | MessageAccumulator) -> JSONObject | None:
    try:
        return fold.response()
    except RefoldError:
        return None  # LIFE-EMPTY, AM-LIFE-EMPTY: nothing to fold


def _chat_message(response: JSONObject) -> JSONObject:
    for choice in response.get("choices") or []:
        if isinstance(choice, dict) and choice.get("index") == 0:
            message = choice.get("message")
            return {
                **(message if isinstance(message, dict) else {}),
                "finish_reason": choice.get("finish_reason"),
            }
    return {}


def _chat_view(response: JSONObject) -> View:
    message = _chat_message(response)
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
        _CHAT_STOPS.get(finish, "other") if isinstance(finish, str) else "other",
    )


def _analyse_messages(frames: Sequence[JSON]) -> Analysis:
    fold, calls, arrival = MessageAccumulator(), MessageCalls(), TextArrival()
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
        _arrived(view_of("anthropic-messages", folded), calls.order, arrival.text),
        several_choices=False,
    )


def _texts(message: JSONObject | None) -> list[str]:
    return [
        block["text"]
        for block in (message or {}).get("content") or []
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]


def _arrived(view: View | None, order: list[str], text: str | None) -> View | None:
    """The view with its calls in the order they completed and its text in the order it
    arrived: what a frame-by-frame adapter can agree with (EV-FOLD-AGREES, see _ends)."""
    if view is None:
        return None
    rank: dict[JSON, int] = {call_id: number for number, call_id in enumerate(order)}
    calls = sorted(view.tool_calls, key=lambda call: rank.get(call.get("id"), len(rank)))
    return replace(view, tool_calls=calls, output_text=view.output_text if text is None else text)


def _message_view(message: JSONObject) -> View:
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
        stop if stop in _MESSAGE_STOPS else "other",
    )
