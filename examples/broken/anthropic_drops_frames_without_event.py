"""Broken on purpose: its SSE decoder drops every frame that has no `event:` line, so a
proxy's data-only stream decodes to no events at all.

Modelled on: AQ30: anthropic-python 2.14.0 `_streaming.py` skips an event whose
`sse.event is None` (`get_final_message()` then fails with a bare AssertionError);
@anthropic-ai/sdk 1.14.0 dispatches on the name too ("request ended without sending any
chunks", earendil-works/pi#1983). The fold itself is correct.
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-SSE-TYPE.
"""

from __future__ import annotations

from _anthropic_fold import FEATURES, Decoder
from _anthropic_fold import Accumulator as Correct


class _Decoder(Decoder):
    def dispatches(self, data, name):
        return bool(name) and super().dispatches(data, name)  # the bug: `event:` required


class Accumulator(Correct):
    """The correct fold: this module's defect is in its SSE decoder."""


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_drops_frames_without_event",
    "factory": Accumulator,
    "features": [*FEATURES, "sse"],
    "sse": _Decoder().decode,
}
