"""Broken on purpose: a top-level `error` event raises ValueError instead of being left out
of the Response (it finishes nothing; the stream may still end with a terminal event).

Modelled on: RQ18: langchain-openai 1.7.4 `_convert_responses_chunk_to_generation_chunk`
raises `ValueError(f"{code}: {message}")` (measured); openai-node 7.5.0 throws an
`APIError` for it.
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-ERROR-EVENT.
"""

from __future__ import annotations

from _responses_fold import FEATURES
from _responses_fold import Accumulator as Correct


class Accumulator(Correct):
    def add(self, event):
        if isinstance(event, dict) and event.get("type") == "error":  # the bug
            code, message = event.get("code"), event.get("message")
            raise ValueError(f"{code}: {message}" if code else str(message))
        super().add(event)


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_error_event_raises",
    "factory": Accumulator,
    "features": FEATURES,
}
