"""Broken events adapter: a Chat tool call completes as soon as its arguments parse.

Modelled on the Vercel AI SDK's OpenAI Chat adapters (`@ai-sdk/openai-compatible`,
`@ai-sdk/openai`) until PR #13137 / #16838: a call was finalised "as soon as the accumulated
arguments parsed as JSON" (`isParsableJson`) and later deltas for it were ignored
(`hasFinished`) (neutral-events.md §2.7; fold-semantics.md §1.4). Chat has no per-call end
marker, so the boundary is choice 0's finish reason (EV-CHAT-COMPLETE-AT-FINISH; NE-24: "not
emitted merely because the accumulated string happens to parse"); the later frames of a
finished call (more argument text, the finish itself) become Opaque.

Breaks EV-CHAT-COMPLETE-AT-FINISH: the call completes at the frame whose fragment closed the
object, before the finish frame; and EV-ARGS-INVALID when more argument text follows the
parsable prefix, so that the arguments at the finish are not an object: the call was already
handed on (the AI SDK's "genuine continuation ... was truncated"). Chat only: Anthropic's
`content_block_stop` ends each call.
"""

from __future__ import annotations

import copy
import json

from _base_adapter import PROVIDER, Adapter, Event


def _parses(text: str) -> dict[str, object] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class CompletesParsablePrefix(Adapter):
    def normalised(self, events: list[Event], frame: object) -> list[Event]:
        out: list[Event] = []
        calls = self.state.setdefault("calls", {})  # id -> {"name", "arguments", "done"}
        for event in events:
            kind = event["type"]
            if kind == "ToolCallStarted":
                calls[event["id"]] = {"name": event["name"], "arguments": "", "done": False}
            call = calls.get(event.get("id") or event.get("call", {}).get("id"))
            if call is not None and call["done"] and kind != "ToolCallStarted":
                continue  # hasFinished: the call was already handed on
            out.append(event)
            if kind == "ToolCallArgumentsDelta" and call is not None:
                call["arguments"] += event["delta"]
                parsed = _parses(call["arguments"])
                if parsed is not None:  # the bug: a parsable prefix ends the call
                    call["done"] = True
                    out.append(
                        {
                            "type": "ToolCallCompleted",
                            "call": {"id": event["id"], "name": call["name"], "arguments": parsed},
                            "opaque": copy.deepcopy(frame),
                        }
                    )
        return out


refold_target = {
    "dialect": "provider-events",
    "adapter": CompletesParsablePrefix,
    "accepts": ["openai-chat"],
    "provider": PROVIDER,
    "features": ["events"],
    "description": "a Chat call completes once its arguments parse (Vercel AI SDK "
    "`isParsableJson` / `hasFinished`, before PR #13137)",
}
