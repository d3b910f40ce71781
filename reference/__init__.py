"""The reference fold of chat-completion streams (refold.reference).

Sans-IO and standard library only: plain JSON values in, a new plain JSON value out.
Every rule of the chat-fold spec is implemented here and named where it is applied;
`RULES` lists them all, and `differences` is the spec's canonical comparison. `SSE_RULES`
is a separate registry of wire rules (WHATWG server-sent events, not part of the spec) for
the `sse` feature; `ALL_RULES` and `lookup_any_rule` cover both.

    >>> from refold.reference import fold
    >>> response = fold([
    ...     {"id": "c1", "choices": [{"index": 0, "delta": {"content": "Hi"}}]},
    ...     {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ... ])
    >>> response["choices"][0]["message"], response["choices"][0]["finish_reason"]
    ({'role': 'assistant', 'content': 'Hi'}, 'stop')
"""

from ._accumulator import Accumulator, fold
from ._arguments import parse_complete
from ._attribution import OUTSIDE_THE_SHAPE, POINTERLESS, rules_at
from ._compare import ABSENT, Difference, canonical, differences, equivalent, pointer
from ._errors import ChunkTypeError, EmptyFoldError, RefoldError
from ._impact import impact_of, is_empty
from ._json import JSON, JSONObject, json_equal
from ._outcomes import (
    IMPACTS,
    SHAPES,
    STATUSES,
    UNNAMED_DIALECT,
    DialectRecord,
    FailureRecord,
    Impact,
    PolicyRecord,
    RuleRecord,
    Shape,
    Status,
    diagnosis_of_record,
    diagnosis_text,
    dialect_record,
    failure_record,
    impact_of_record,
    rule_found_on,
    rule_impact,
    shape_of_record,
    worst_impact,
    worst_shape,
)
from ._persist import bound, cut_text, escape_controls, json_text, persistable
from ._rules import FEATURES, RULES, Rule, rule, rules_of
from ._scrub import NOT_KEPT, REDACTED, scrub, scrub_at, scrub_text
from ._sse_rules import ALL_RULES, SSE_RULES, SSE_RULES_NOTE, SSE_RULES_SOURCE, lookup_any_rule

__all__ = [
    "ABSENT",
    "ALL_RULES",
    "FEATURES",
    "IMPACTS",
    "JSON",
    "NOT_KEPT",
    "OUTSIDE_THE_SHAPE",
    "POINTERLESS",
    "REDACTED",
    "RULES",
    "SHAPES",
    "SSE_RULES",
    "SSE_RULES_NOTE",
    "SSE_RULES_SOURCE",
    "STATUSES",
    "UNNAMED_DIALECT",
    "Accumulator",
    "ChunkTypeError",
    "DialectRecord",
    "Difference",
    "EmptyFoldError",
    "FailureRecord",
    "Impact",
    "JSONObject",
    "PolicyRecord",
    "RefoldError",
    "Rule",
    "RuleRecord",
    "Shape",
    "Status",
    "bound",
    "canonical",
    "cut_text",
    "diagnosis_of_record",
    "diagnosis_text",
    "dialect_record",
    "differences",
    "equivalent",
    "escape_controls",
    "failure_record",
    "fold",
    "impact_of",
    "impact_of_record",
    "is_empty",
    "json_equal",
    "json_text",
    "lookup_any_rule",
    "parse_complete",
    "persistable",
    "pointer",
    "rule",
    "rule_found_on",
    "rule_impact",
    "rules_at",
    "rules_of",
    "scrub",
    "scrub_at",
    "scrub_text",
    "shape_of_record",
    "worst_impact",
    "worst_shape",
]
