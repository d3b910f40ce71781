"""Broken events adapter: a delta event's opaque is the delta object, not the whole frame.

Modelled on adapters that keep a re-serialised subset of the provider chunk beside the
neutral part: LiteLLM's `GenericStreamingChunk.provider_specific_fields` and the AI SDK's
per-part `providerMetadata` carry only what the adapter picked (neutral-events.md §2.7,
§2.9); the whole chunk is the AI SDK's separate `raw` part. proofborne-core's `opaque` is "the
complete provider frame that produced the delta" (§1.2; NE-35: "not a fragment").

Breaks EV-OPAQUE-FRAME (the opaque of every TextDelta and ToolCallArgumentsDelta is Chat's
`choices[0].delta` or Anthropic's `delta` / `content_block`, JSON-equal to no frame) and
EV-FRAME-COVER (a frame whose only event is such a delta is carried by no event).
"""

from __future__ import annotations

import copy

from _base_adapter import ACCEPTS, PROVIDER, Adapter, Event, choice_zero_delta


class OpaqueIsTheDelta(Adapter):
    def normalised(self, events: list[Event], frame: object) -> list[Event]:
        for event in events:
            if event["type"] in ("TextDelta", "ToolCallArgumentsDelta"):
                source = event["opaque"]
                if self.dialect == "openai-chat":
                    fragment = choice_zero_delta(source)
                else:
                    fragment = source.get("delta") or source.get("content_block")
                event["opaque"] = copy.deepcopy(fragment)  # the bug: a fragment of the frame
        return events


refold_target = {
    "dialect": "provider-events",
    "adapter": OpaqueIsTheDelta,
    "accepts": ACCEPTS,
    "provider": PROVIDER,
    "features": ["events"],
    "description": "delta events carry the delta object as opaque (LiteLLM "
    "provider_specific_fields / AI SDK providerMetadata subsets)",
}
