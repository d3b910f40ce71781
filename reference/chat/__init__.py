"""The reference fold of OpenAI Chat Completions streams (refold.reference.chat).

Sans-IO and standard library only: plain JSON values in, a new plain JSON value out.
Every rule of the chat-fold spec is implemented here and named where it is applied;
`RULES` lists them all, and `differences` is the spec's canonical comparison. `SSE_RULES`
is a separate registry of wire rules (WHATWG server-sent events, not part of the spec) for
the `sse` feature; `ALL_RULES` and `lookup_any_rule` cover both.

    >>> from refold.reference.chat import fold
    >>> response = fold([
    ...     {"id": "c1", "choices": [{"index": 0, "delta": {"content": "Hi"}}]},
    ...     {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ... ])
    >>> response["choices"][0]["message"], response["choices"][0]["finish_reason"]
    ({'role': 'assistant', 'content': 'Hi'}, 'stop')
"""

from .._compare import ABSENT, Difference
from .._errors import ChunkTypeError, EmptyFoldError
from .._rules import Rule
from ._accumulator import Accumulator, fold
from ._attribution import OUTSIDE_THE_SHAPE, POINTERLESS, rules_at
from ._compare import canonical, differences, equivalent
from ._rules import FEATURES, RULES, rule, rules_of
from ._sse_rules import ALL_RULES, SSE_RULES, SSE_RULES_NOTE, SSE_RULES_SOURCE, lookup_any_rule

__all__ = [
    "ABSENT",
    "ALL_RULES",
    "FEATURES",
    "OUTSIDE_THE_SHAPE",
    "POINTERLESS",
    "RULES",
    "SSE_RULES",
    "SSE_RULES_NOTE",
    "SSE_RULES_SOURCE",
    "Accumulator",
    "ChunkTypeError",
    "Difference",
    "EmptyFoldError",
    "Rule",
    "canonical",
    "differences",
    "equivalent",
    "fold",
    "lookup_any_rule",
    "rule",
    "rules_at",
    "rules_of",
]
