"""The reference fold of Anthropic Messages streams (refold.reference.anthropic).

Sans-IO and standard library only: plain JSON values in, a new plain JSON value out.
Every rule of the anthropic-fold spec is implemented here and named (`AM-*`) where it is
applied; `RULES` lists them all, and `differences` is the dialect's canonical comparison
(nulls kept inside a block's `input`, empty `citations` removed). `decode_stream` and
`MessageStreamDecoder` are the wire layer (feature `sse`): SSE bytes in, event objects out.
Which rules a difference is evidence against is the harness's
(`refold.dialects.anthropic_messages.attribution`).

    >>> from refold.reference.anthropic import fold
    >>> message = fold([
    ...     {"type": "message_start", "message": {"id": "msg_1", "model": "claude",
    ...         "content": [], "stop_reason": None, "usage": {"input_tokens": 3}}},
    ...     {"type": "content_block_start", "index": 0,
    ...         "content_block": {"type": "text", "text": ""}},
    ...     {"type": "content_block_delta", "index": 0,
    ...         "delta": {"type": "text_delta", "text": "Hi"}},
    ...     {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
    ...         "usage": {"output_tokens": 1}},
    ...     {"type": "message_stop"},
    ... ])
    >>> message["content"], message["stop_reason"], message["usage"]
    ([{'type': 'text', 'text': 'Hi'}], 'end_turn', {'input_tokens': 3, 'output_tokens': 1})
"""

from .._compare import ABSENT, Difference
from .._rules import Rule
from ._accumulator import Accumulator, fold
from ._compare import canonical, differences
from ._errors import EventDataError, EventTypeError, NoMessageError
from ._rules import FEATURES, RULES
from ._sse import MessageStreamDecoder, decode_stream

__all__ = [
    "ABSENT",
    "FEATURES",
    "RULES",
    "Accumulator",
    "Difference",
    "EventDataError",
    "EventTypeError",
    "MessageStreamDecoder",
    "NoMessageError",
    "Rule",
    "canonical",
    "decode_stream",
    "differences",
    "fold",
]
