"""Broken events adapter: what its runtime persists keeps every opaque and payload.

Modelled on proofborne-core's own contract history: in 0.1.0-alpha.1 every event "keeps the
complete provider frame in `opaque`" and nothing more is said; the latest docs add that
"runtimes must strip it before persisting events, checkpoints, proof bundles, or generated
reports", and `ProviderTurn.response_id` "must not be persisted raw" (neutral-events.md §1.2,
§1.3; NE-37). A runtime that writes its events as emitted (a JSONL log of the live stream)
persists the provider frames, with whatever they carry (`system_fingerprint`, unknown keys),
and the raw response id.

Breaks PERSIST-STRIP (`opaque`, `payload`, `response_id` keys persisted), PERSIST-CANARY (a
canary planted outside the portable fields is written) and PERSIST-RESPONSE-ID.
"""

from __future__ import annotations

import copy
from typing import Any

from _base_adapter import ACCEPTS, PROVIDER, Adapter


class PersistsOpaque(Adapter):
    def persisted(self) -> Any:
        # the bug: the events are written as emitted, provider frames and all
        return {"events": copy.deepcopy(self.emitted), "outcome": copy.deepcopy(self.outcome)}


refold_target = {
    "dialect": "provider-events",
    "adapter": PersistsOpaque,
    "accepts": ACCEPTS,
    "provider": PROVIDER,
    "features": ["events"],
    "description": "persists its events unstripped (opaque, payload, response_id kept)",
}
