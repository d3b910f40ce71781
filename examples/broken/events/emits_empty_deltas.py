"""Broken events adapter: every string the provider sends becomes a delta, empty ones too.

Modelled on the empty strings real streams carry where text or arguments would be: OpenAI's
first Chat chunk is `{"role": "assistant", "content": ""}` (openai-python keeps the `""`,
fold-semantics.md §1 table), the first fragment of a Chat tool call carries its id and name
"with empty `arguments`" (neutral-events.md §4.3, coder/aibridge#8), and Anthropic's text
block starts with `"text": ""` (§3.1). An adapter that forwards every string it reads
emits deltas that say nothing; the AI SDK appends text only "when truthy"
(fold-semantics.md §1.4), and turnframe's counts stay stable only without them (NE-10).

Breaks EV-NO-EMPTY-DELTA: `TextDelta` / `ToolCallArgumentsDelta` with `delta: ""` (for Chat
`content: ""` and `arguments: ""`; for Anthropic a text block's empty start text and an empty
`partial_json`).
"""

from __future__ import annotations

import copy
from typing import Any

from _base_adapter import ACCEPTS, PROVIDER, Adapter, Event, choice_zero_delta


def _empties(dialect: str, frame: Any) -> tuple[bool, bool]:
    """Whether the frame carries an empty text string, and an empty argument string."""
    if not isinstance(frame, dict):
        return False, False
    if dialect == "openai-chat":
        delta = choice_zero_delta(frame)
        fragments = delta.get("tool_calls")
        fragments = fragments if isinstance(fragments, list) else []
        return delta.get("content") == "", any(
            isinstance(f, dict)
            and isinstance(f.get("function"), dict)
            and f["function"].get("arguments") == ""
            for f in fragments
        )
    block = frame.get("content_block") or {}
    delta = frame.get("delta") or {}
    return (
        frame.get("type") == "content_block_start"
        and block.get("type") == "text"
        and block.get("text") == ""
    ), delta.get("partial_json") == ""


class EmitsEmptyDeltas(Adapter):
    def normalised(self, events: list[Event], frame: Any) -> list[Event]:
        calls = self.state.setdefault("calls", {})  # Anthropic block index -> call id
        for event in events:
            if event["type"] == "ToolCallStarted" and self.dialect != "openai-chat":
                calls[event["opaque"].get("index")] = event["id"]
        text, arguments = _empties(self.dialect, frame)
        if not (text or arguments):
            return events
        out = [e for e in events if e["type"] != "Opaque"]
        if text:  # the bug: an empty string is handed on as text
            out.insert(0, {"type": "TextDelta", "delta": "", "opaque": copy.deepcopy(frame)})
        started = [n for n, e in enumerate(out) if e["type"] == "ToolCallStarted"]
        if self.dialect == "openai-chat":  # ... and so are the empty arguments of a start
            target, at = (out[started[-1]]["id"], started[-1] + 1) if started else (None, 0)
            while at < len(out) and out[at].get("opaque") != frame:
                at += 1  # after the deltas held for the call's id (EV-ARGS-BUFFER), in order
        else:
            target, at = calls.get(frame.get("index")), len(out)
        if arguments and target is not None:
            out.insert(
                at,
                {
                    "type": "ToolCallArgumentsDelta",
                    "id": target,
                    "delta": "",
                    "opaque": copy.deepcopy(frame),
                },
            )
        return out


refold_target = {
    "dialect": "provider-events",
    "adapter": EmitsEmptyDeltas,
    "accepts": ACCEPTS,
    "provider": PROVIDER,
    "features": ["events"],
    "description": "empty text and argument strings become empty deltas",
}
