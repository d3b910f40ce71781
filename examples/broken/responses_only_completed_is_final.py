"""Broken on purpose: only `response.completed` gives a result; after `response.incomplete`
or `response.failed` reading the response raises RuntimeError.

Modelled on: RQ17, RQ18: openai-python 3.57.0 `ResponseStream.get_final_response()` raises
"Didn't receive a `response.completed` event." for an incomplete (max_output_tokens,
content_filter) or failed response (openai-python PR #3538 open).
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-TERMINAL-EVENTS, RS-INCOMPLETE, RS-FAILED.
"""

from __future__ import annotations

from _responses_fold import FEATURES
from _responses_fold import Accumulator as Correct


class Accumulator(Correct):
    def response(self):
        if self.terminal is not None and self.terminal_status != "completed":
            raise RuntimeError("Didn't receive a `response.completed` event.")  # the bug
        return super().response()


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_only_completed_is_final",
    "factory": Accumulator,
    "features": FEATURES,
}
