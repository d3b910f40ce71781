"""Broken events adapter: reasoning fragments become TextDelta events.

Modelled on adapters that hand every text-like delta on as answer text: Chat's DeepSeek-style
`delta.reasoning_content` / OpenRouter's `delta.reasoning` (which openai-python and LiteLLM
fold as extra text fields, fold-semantics.md §1 table) and Anthropic's `thinking_delta`.
The neutral contracts rule it out: polyc-llm's `ReasoningDelta` "is never concatenated into
the answer", talos-core's thinking deltas "must not be ... included in final text",
cratefield drops `Reasoning` from the completion (neutral-events.md §2.5, §2.6; NE-11), and
proofborne's `output_text` never holds hidden reasoning. The research found the rule, not a
released SDK breaking it; this adapter is the mistake those docs guard against. Its turn is
the provider's final object, so the reasoning shows in the events only.

Breaks EV-TEXT-CONSERVE: the TextDelta deltas join to the reasoning and the text, the turn's
output_text is the text alone. (EV-REASONING-OPAQUE too, which `check_events` leaves to the
mapping's differential check.)
"""

from __future__ import annotations

import copy
from typing import Any

from _base_adapter import ACCEPTS, PROVIDER, Adapter, Event, choice_zero_delta


def _reasoning(dialect: str, frame: Any) -> str:
    """The reasoning text a frame carries ("" if none)."""
    if not isinstance(frame, dict):
        return ""
    if dialect == "openai-chat":
        delta = choice_zero_delta(frame)
        value = delta.get("reasoning_content") or delta.get("reasoning")
    else:
        found = frame.get("delta")
        delta = found if isinstance(found, dict) else {}
        value = delta.get("thinking") if delta.get("type") == "thinking_delta" else None
    return value if isinstance(value, str) else ""


class ReasoningAsText(Adapter):
    def normalised(self, events: list[Event], frame: Any) -> list[Event]:
        reasoning = _reasoning(self.dialect, frame)
        if not reasoning:
            return events
        # the bug: the reasoning is handed on as answer text, before the frame's text
        return [
            {"type": "TextDelta", "delta": reasoning, "opaque": copy.deepcopy(frame)},
            *(e for e in events if e["type"] != "Opaque"),
        ]


refold_target = {
    "dialect": "provider-events",
    "adapter": ReasoningAsText,
    "accepts": ACCEPTS,
    "provider": PROVIDER,
    "features": ["events"],
    "description": "reasoning_content / reasoning / thinking_delta become TextDelta",
}
