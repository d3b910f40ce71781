"""Broken events adapter: a Chat tool call completes when a call of another index starts.

Modelled on openai-python's Chat stream helper, which emits a tool call's
`tool_calls.function.arguments.done` event "when a different tool index starts" or when the
choice gets a `finish_reason` (neutral-events.md §4.3, fold-semantics.md §1.1), and on the
neutral mapping the research first proposed from it (§4.4: "new index after k, or
`finish_reason`"). Chat lets fragments of different indexes interleave, so "another index
started" is not a boundary: events.md EV-CHAT-COMPLETE-AT-FINISH (open question 4).

Breaks EV-CHAT-COMPLETE-AT-FINISH: with two calls, the first completes at the frame that
opens the second, not at choice 0's finish. Chat only.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from _base_adapter import PROVIDER, Adapter, Event, choice_zero_delta


def _indexes(frame: Any) -> list[Any]:
    fragments = choice_zero_delta(frame).get("tool_calls")
    return (
        [f.get("index") for f in fragments if isinstance(f, dict)]
        if isinstance(fragments, list)
        else []
    )


def _parsed(text: str) -> Any:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class CompletesWhenNextIndexStarts(Adapter):
    def normalised(self, events: list[Event], frame: Any) -> list[Event]:
        calls = self.state.setdefault("calls", {})  # id -> [index, name, arguments, done]
        out: list[Event] = []
        for event in events:
            if event["type"] == "ToolCallStarted":
                indexes = _indexes(event["opaque"])
                index = indexes[-1] if indexes else None
                for call_id, call in calls.items():  # the bug: another index ends the call
                    arguments = _parsed(call[2])
                    if call[0] != index and not call[3] and arguments is not None:
                        call[3] = True
                        out.append(
                            {
                                "type": "ToolCallCompleted",
                                "call": {"id": call_id, "name": call[1], "arguments": arguments},
                                "opaque": copy.deepcopy(frame),
                            }
                        )
                calls[event["id"]] = [index, event["name"], "", False]
            elif event["type"] == "ToolCallArgumentsDelta" and event["id"] in calls:
                calls[event["id"]][2] += event["delta"]
            elif (
                event["type"] == "ToolCallCompleted"
                and calls.get(event["call"]["id"], [0, 0, 0, False])[3]
            ):
                continue  # already handed on
            out.append(event)
        return out


refold_target = {
    "dialect": "provider-events",
    "adapter": CompletesWhenNextIndexStarts,
    "accepts": ["openai-chat"],
    "provider": PROVIDER,
    "features": ["events"],
    "description": "a Chat call completes when another tool index starts (openai-python "
    "`arguments.done` logic)",
}
