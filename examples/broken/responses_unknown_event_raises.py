"""Broken on purpose: an event type outside a fixed list (`keepalive` is on it) raises
instead of being ignored.

Modelled on: RQ24: openai-node 7.5.0 `sanitizeResponseEvent` throws "Unhandled response
stream event: …" for any type it does not list (measured through
`responses.stream().finalResponse()`).
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-KEEPALIVE.
"""

from __future__ import annotations

from _responses_fold import EVENTS, FEATURES, LIFECYCLE, TERMINALS
from _responses_fold import Accumulator as Correct

KNOWN = {
    *LIFECYCLE,
    *TERMINALS,
    *EVENTS,
    "response.output_item.added",
    "response.output_item.done",
    "error",
    "keepalive",
}


class Accumulator(Correct):
    def add(self, event):
        if isinstance(event, dict) and event.get("type") not in KNOWN:  # the bug
            raise ValueError(f"Unhandled response stream event: {event.get('type')!r}")
        super().add(event)


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_unknown_event_raises",
    "factory": Accumulator,
    "features": FEATURES,
}
