"""Broken on purpose: `response.failed` is reported as a completed response: status
`completed` and no `error`, as a chat finish reason `stop` would read.

Modelled on: RQ18: litellm 1.110.2's Responses bridge folded by `stream_chunk_builder`
reports a failed response with finish reason `stop` (measured on the bare bridge; through
`CustomStreamWrapper` it raises instead); praxis-proxy/ai#841 persisted such a response as
a success.
Evidence: /work/shared/research/responses-fold.md (RQn; §4 is the SDK table, §5 the probe).
Breaks: RS-FAILED.
"""

from __future__ import annotations

from _responses_fold import FEATURES
from _responses_fold import Accumulator as Correct


class Accumulator(Correct):
    def on_terminal(self, kind, response):
        if kind == "response.failed" and isinstance(response, dict):  # the bug
            kind = "response.completed"
            response = {
                **{k: v for k, v in response.items() if k != "error"},
                "status": "completed",
            }
        super().on_terminal(kind, response)


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_failed_as_completed",
    "factory": Accumulator,
    "features": FEATURES,
}
