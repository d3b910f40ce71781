"""Broken events adapter: a stream that ends without its terminal still completes.

Modelled on the folds that hand out a short answer when the body ends without a finish:
openai-python's and LangChain's Chat folds return the partial message with finish reason
`None`, OpenRouter's AI SDK provider maps it to `other` (fold-semantics.md Q13
`no_finish_reason_at_all`; anomalyco/opencode PR #40061 added truncation detection for it).
The neutral contracts all refuse it: turnframe's `stream_ended_without_finish`, reef's
`MissingTerminal`, rig's "a reply the provider did not end has no response"
(neutral-events.md §2.1-2.3; NE-3: "a truncated stream is never a short answer").

Breaks EV-TRUNCATED: at the end of a body without choice 0's finish reason (Chat) or
`message_stop` (Anthropic) it emits a Completed, stop reason `other`, and the outcome
`completed` instead of `error` (`truncated`); and EV-STARTED-COMPLETED when the body was cut
inside a tool call, which that turn leaves started and never completed.
"""

from __future__ import annotations

from typing import Any

from _base_adapter import ACCEPTS, PROVIDER, Adapter

_UNREPORTED = dict.fromkeys(
    ("input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens")
)


def _header(dialect: str, frames: list[Any]) -> tuple[str, str | None]:
    """The model and response id the frames reported (first ones)."""
    objects = [f for f in frames if isinstance(f, dict)]
    if dialect == "anthropic-messages":
        objects = [
            f["message"]
            for f in objects
            if f.get("type") == "message_start" and isinstance(f.get("message"), dict)
        ]
    model = next((f["model"] for f in objects if isinstance(f.get("model"), str)), "")
    return model, next((f["id"] for f in objects if isinstance(f.get("id"), str)), None)


class CompletesTruncatedStream(Adapter):
    def end(self) -> dict[str, Any]:
        ending = super().end()
        if ending.get("error", {}).get("kind") != "truncated":
            return ending
        # the bug: the body ended early, and what arrived is taken for the answer
        usages = [e["usage"] for e in self.emitted if e["type"] == "Usage"]
        model, response_id = _header(self.dialect, self.frames)
        turn = {
            "provider": PROVIDER,
            "model": model,
            "response_id": response_id,
            "output_text": "".join(e["delta"] for e in self.emitted if e["type"] == "TextDelta"),
            "tool_calls": [e["call"] for e in self.emitted if e["type"] == "ToolCallCompleted"],
            "stop_reason": "other",
            "usage": usages[-1] if usages else _UNREPORTED,
            "opaque": None,
        }
        self.outcome = {"outcome": "completed"}
        return {**self.outcome, "events": self.emit([{"type": "Completed", "turn": turn}])}


refold_target = {
    "dialect": "provider-events",
    "adapter": CompletesTruncatedStream,
    "accepts": ACCEPTS,
    "provider": PROVIDER,
    "features": ["events"],
    "description": "a body ending without its terminal completes with what arrived "
    "(openai-python / LangChain finish None, OpenRouter `other`)",
}
