"""The reference fold of OpenAI Responses streams (refold.reference.responses).

Sans-IO and standard library only: plain JSON values in, a new plain JSON value out.
Every rule of the responses-fold spec is implemented here and named (`RS-*`, `LIFE-RS-*`)
where it is applied; `RULES` lists them all, and `differences` is the dialect's canonical
comparison (nulls, empty `annotations` and `logprobs`, and the top-level `output_text`
removed). `decode_stream` and `ResponseStreamDecoder` are the wire layer (feature `sse`):
SSE bytes in, event objects out. Which rules a difference is evidence against is the
harness's (`refold.dialects.openai_responses.attribution`).

    >>> from refold.reference.responses import fold
    >>> response = fold([
    ...     {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress",
    ...         "model": "gpt-x", "output": []}},
    ...     {"type": "response.output_item.added", "output_index": 0, "item": {
    ...         "type": "message", "id": "msg_1", "role": "assistant", "content": []}},
    ...     {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0,
    ...         "content_index": 0, "delta": "Hi"},
    ...     {"type": "response.completed", "response": {"id": "resp_1",
    ...         "status": "completed", "model": "gpt-x", "output": [],
    ...         "usage": {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4}}},
    ... ])
    >>> response["status"], response["output"][0]["content"][0]["text"]
    ('completed', 'Hi')
    >>> response["output"][0]["status"], response["usage"]["total_tokens"]
    ('completed', 4)
"""

from .._compare import ABSENT, Difference
from .._rules import Rule
from ._accumulator import Accumulator, fold
from ._compare import canonical, differences
from ._errors import EventDataError, EventTypeError, NoResponseError
from ._rules import FEATURES, RULES
from ._sse import ResponseStreamDecoder, decode_stream

__all__ = [
    "ABSENT",
    "FEATURES",
    "RULES",
    "Accumulator",
    "Difference",
    "EventDataError",
    "EventTypeError",
    "NoResponseError",
    "ResponseStreamDecoder",
    "Rule",
    "canonical",
    "decode_stream",
    "differences",
    "fold",
]
