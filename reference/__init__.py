"""The shared kernel of every reference fold (refold.reference).

Sans-IO and standard library only: plain JSON values in, new plain JSON values out. It
holds what every dialect's reference shares: JSON values and their comparison
(`Difference`, RFC 6901 pointers), the base error, what a rule is, the WHATWG
server-sent-events decoder (`refold.reference.sse`), scrubbing and bounding what is
persisted, and the outcome records (statuses, impacts, shapes) results are written in.
Each dialect's reference fold is a sub-package: `refold.reference.chat` (OpenAI Chat
Completions), `.anthropic`, `.responses`, `.events` (provider-neutral events).

    >>> from refold.reference import Difference, pointer
    >>> str(Difference(pointer(["choices", 0]), "a", "b"))
    'at /choices/0: expected "a", received "b"'
"""

from ._arguments import parse_complete
from ._compare import ABSENT, Difference, pointer
from ._errors import ChunkTypeError, EmptyFoldError, RefoldError
from ._impact import impact_of, is_empty
from ._json import JSON, JSONObject, json_equal, non_blank
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
from ._rules import Rule
from ._scrub import NOT_KEPT, REDACTED, scrub, scrub_at, scrub_text

__all__ = [
    "ABSENT",
    "IMPACTS",
    "JSON",
    "NOT_KEPT",
    "REDACTED",
    "SHAPES",
    "STATUSES",
    "UNNAMED_DIALECT",
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
    "cut_text",
    "diagnosis_of_record",
    "diagnosis_text",
    "dialect_record",
    "escape_controls",
    "failure_record",
    "impact_of",
    "impact_of_record",
    "is_empty",
    "json_equal",
    "json_text",
    "non_blank",
    "parse_complete",
    "persistable",
    "pointer",
    "rule_found_on",
    "rule_impact",
    "scrub",
    "scrub_at",
    "scrub_text",
    "shape_of_record",
    "worst_impact",
    "worst_shape",
]
