"""Broken events adapter: each TextDelta carries the text accumulated so far, not the fragment.

Modelled on runtimes built over the SDK stream helpers, which hand out both the new fragment
and the accumulated text of every text event: openai-python's `content.delta` and
`response.output_text.delta` events carry `snapshot` next to `delta`, anthropic-sdk-python's
`text` event carries `text` and `snapshot` (neutral-events.md §3.3, §4.2). Reading `snapshot`
where `delta` was meant replays the whole text on every frame ("Hel", "Hello"), while the turn,
taken from the helper's final message (`get_final_message()`), is right. proofborne-core's
`TextDelta.delta` is "newly received text, not the accumulated response" (§1.2; NE-8).

Breaks EV-TEXT-CONSERVE: the deltas join to "HelHello", the turn's output_text is "Hello".
"""

from __future__ import annotations

from _base_adapter import ACCEPTS, PROVIDER, Adapter, Event


class ReplaysAccumulatedText(Adapter):
    def normalised(self, events: list[Event], frame: object) -> list[Event]:
        for event in events:
            if event["type"] == "TextDelta":
                # the bug: the snapshot (all text so far) is handed on as the delta
                self.state["snapshot"] = self.state.get("snapshot", "") + event["delta"]
                event["delta"] = self.state["snapshot"]
        return events


refold_target = {
    "dialect": "provider-events",
    "adapter": ReplaysAccumulatedText,
    "accepts": ACCEPTS,
    "provider": PROVIDER,
    "features": ["events"],
    "description": "TextDelta.delta is the accumulated snapshot (openai-python / "
    "anthropic-sdk-python helper `snapshot` read as the delta)",
}
