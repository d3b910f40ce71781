"""Hand-written OpenAI Responses streams for the events SDK tests (events.md §4.2).

Built from the suites' frame builders (`refold.suites.events._responses_frames`); every
terminal reports usage, so a library's reading of an unreported usage stays out of the
findings of other rules.
"""

from __future__ import annotations

from typing import Any

from refold.suites.events._responses_frames import (
    added,
    args_delta,
    args_done,
    call_item,
    created,
    item_done,
    message_item,
    terminal,
    text_delta,
    text_done,
    usage_of,
)

RESPONSES = "openai-responses"
USAGE = usage_of(10, 4)
Frames = list[Any]


def text_stream(*fragments: str, final: bool = True) -> Frames:
    """One message whose text arrives in `fragments`, `.done` events after them (the
    terminal left out when `final` is false: the body ended there)."""
    item = message_item("msg_1", "".join(fragments))
    return [
        created(),
        added(0, {**message_item("msg_1"), "status": "in_progress"}),
        *(text_delta(0, f) for f in fragments),
        text_done(0, "".join(fragments)),
        item_done(0, item),
        *([terminal(output=[item], usage=USAGE)] if final else []),
    ]


def done_only_text(text: str) -> Frames:
    """One message whose text only `output_text.done` carries (gpt-oss, RQ5)."""
    frames = text_stream(text)
    del frames[2]
    return frames


def call_stream(*fragments: str, arguments: str | None = None) -> Frames:
    """One function call `call_w1` whose arguments arrive in `fragments`; its `.done`
    events carry `arguments` (by default the fragments joined)."""
    whole = "".join(fragments) if arguments is None else arguments
    item = call_item("call_w1", "get_weather", whole)
    return [
        created(),
        added(0, {**call_item("call_w1", "get_weather"), "status": "in_progress"}),
        *(args_delta(0, f) for f in fragments),
        args_done(0, whole),
        item_done(0, item),
        terminal(output=[item], usage=USAGE),
    ]


def done_only_call() -> Frames:
    """A call announced only by its output_item.done (no added, no deltas)."""
    item = call_item("call_w1", "get_weather", '{"city":"Paris"}')
    return [created(), item_done(0, item), terminal(output=[item], usage=USAGE)]


def orphan_call() -> Frames:
    """A call whose argument deltas come before its output_item.added (family 6)."""
    item = call_item("call_w1", "get_weather", '{"city":"Paris"}')
    return [
        created(),
        args_delta(0, '{"city":'),
        args_delta(0, '"Paris"}'),
        added(0, call_item("call_w1", "get_weather")),
        item_done(0, item),
        terminal(output=[item], usage=USAGE),
    ]


def failed_stream() -> Frames:
    """Text, then `response.failed` with usage and an error."""
    return [
        *text_stream("Hi", final=False),
        terminal("failed", usage=USAGE, error={"code": "server_error", "message": "boom"}),
    ]


def hosted_then_text() -> Frames:
    """A web_search_call item (with a status event), then a message."""
    search = {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "completed",
        "action": {"type": "search", "query": "weather"},
    }
    frames = [
        created(),
        added(0, {**search, "status": "in_progress"}),
        {"type": "response.web_search_call.searching", "item_id": "ws_1", "output_index": 0},
        item_done(0, search),
        *text_stream("Hel", "lo")[1:],
    ]
    for frame in frames[4:-1]:
        frame["output_index"] = 1
    frames[-1]["response"]["output"] = [search, *frames[-1]["response"]["output"]]
    return frames
