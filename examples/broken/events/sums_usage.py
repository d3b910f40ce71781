"""Broken events adapter: the turn's usage is the sum of the Usage events, not the last one.

Modelled on LangChain, whose `add_usage` sums every chunk's `usage_metadata` when chunks are
added up (fold-semantics.md §1.3, Q14), and on the Anthropic folds that added
`message_delta.usage` to `message_start`'s although Anthropic's counts are cumulative: the
Spring AI discussion and the pi/co-mono commit that switched `+=` to `=` (neutral-events.md
§3.2; NE-27, NE-28, NE-30). Each Usage event is a whole snapshot; a turn that adds them
counts the output twice (1 + 9 = 10 for Anthropic; a provider sending cumulative usage on
two Chat chunks doubles everything).

Breaks EV-USAGE-LAST: T.usage is not the last Usage's usage.
"""

from __future__ import annotations

from _base_adapter import ACCEPTS, PROVIDER, Adapter, Event

_COUNTERS = ("input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens")


def _added(usages: list[dict[str, int | None]]) -> dict[str, int | None]:
    total: dict[str, int | None] = {}
    for key in _COUNTERS:
        reported = [u[key] for u in usages if u.get(key) is not None]
        total[key] = sum(v for v in reported if v is not None) if reported else None
    return total


class SumsUsage(Adapter):
    def completed(self, event: Event) -> Event:
        event = super().completed(event)
        usages = [e["usage"] for e in self.emitted if e["type"] == "Usage"]
        if usages:
            event["turn"]["usage"] = _added(usages)  # the bug: snapshots added up
        return event


refold_target = {
    "dialect": "provider-events",
    "adapter": SumsUsage,
    "accepts": ACCEPTS,
    "provider": PROVIDER,
    "features": ["events"],
    "description": "the turn's usage sums the Usage snapshots (LangChain `add_usage`; "
    "Anthropic message_delta added to message_start)",
}
