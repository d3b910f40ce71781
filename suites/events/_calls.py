"""Streams with client tool calls shared by the calls and arguments examples, and the
per-call reading of an adapter's events."""

from __future__ import annotations

from refold.reference import JSON, JSONObject

from . import _responses_frames as rs
from ._frames import chat, message, tool, tool_block


def two_calls(source: str) -> list[JSON]:
    """Two client calls, one after the other, each in two fragments: `call_a`/`toolu_a`
    (`{"city":"Paris"}`) then `call_b`/`toolu_b` (`{"city":"Rome"}`)."""
    if source == "openai-chat":
        return chat(
            tool(0, call_id="call_a", name="get_weather", arguments='{"city":'),
            tool(0, arguments='"Paris"}'),
            tool(1, call_id="call_b", name="get_time", arguments='{"city":'),
            tool(1, arguments='"Rome"}'),
            reason="tool_calls",
        )
    if source == "openai-responses":
        return _two_responses_calls()
    return message(
        *tool_block(0, "toolu_a", "get_weather", '{"city":', '"Paris"}'),
        *tool_block(1, "toolu_b", "get_time", '{"city":', '"Rome"}'),
        reason="tool_use",
    )


def _two_responses_calls() -> list[JSON]:
    first = rs.call_item("call_a", "get_weather", '{"city":"Paris"}', item_id="fc_a")
    second = rs.call_item("call_b", "get_time", '{"city":"Rome"}', item_id="fc_b")
    frames: list[JSON] = [rs.created()]
    for index, (item, head, tail) in enumerate(
        ((first, '{"city":', '"Paris"}'), (second, '{"city":', '"Rome"}'))
    ):
        frames += [
            rs.added(index, {**item, "arguments": "", "status": "in_progress"}),
            rs.args_delta(index, head, item_id=item["id"]),
            rs.args_delta(index, tail, item_id=item["id"]),
            rs.args_done(index, item["arguments"], item_id=item["id"]),
            rs.item_done(index, item),
        ]
    return [*frames, rs.terminal(output=[first, second])]


def ids(source: str) -> tuple[str, str]:
    """The ids of `two_calls`' calls (Responses: the `call_id`s)."""
    return ("call_a", "call_b") if source != "anthropic-messages" else ("toolu_a", "toolu_b")


def call_events(events: list[JSON]) -> list[tuple[int, str, str | None]]:
    """(position, type, call id) of every ToolCall* event, in order."""
    found: list[tuple[int, str, str | None]] = []
    for number, event in enumerate(events):
        if not isinstance(event, dict):
            continue
        kind = event.get("type")
        if kind in ("ToolCallStarted", "ToolCallArgumentsDelta"):
            found.append((number, str(kind), _str(event.get("id"))))
        elif kind == "ToolCallCompleted":
            call = event.get("call")
            found.append(
                (number, str(kind), _str(call.get("id")) if isinstance(call, dict) else None)
            )
    return found


def completed_calls(events: list[JSON]) -> list[JSONObject]:
    """The `call` of every ToolCallCompleted, in order."""
    return [
        e["call"]
        for e in events
        if isinstance(e, dict)
        and e.get("type") == "ToolCallCompleted"
        and isinstance(e.get("call"), dict)
    ]


def _str(value: JSON) -> str | None:
    return value if isinstance(value, str) else None
