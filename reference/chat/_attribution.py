"""Which rules a difference is evidence against, from where it is in the response.

A property test checks many rules at once: a round trip of family 8 is marked with the
robustness rules, but a target that sums usage fails it at `/usage`. Charging that
failure to every rule the test is marked with would report robustness bugs the target
does not have, and would make a baseline unusable (one known failure would fail every
property test). So each JSON pointer of a `chat.completion` is mapped to the rules that
decide the value there; a failure is charged to the rules its differences point at.

Rules about reading any field (`POINTERLESS`: ROB-* but ROB-UNKNOWN-KEYS,
CHOICE-DELTA-NULL, LIFE-*) own no pointer: a difference never implicates them by position,
only through the test's own marks when nothing more precise is known (a crash, a wrong
`finished`). A key outside the output shape (`OUTSIDE_THE_SHAPE`) is ROB-UNKNOWN-KEYS's:
the shape is closed, so such a key was copied from a chunk (openai-python keeps Azure's
`prompt_filter_results`) or invented, and either way an unknown key changed the result.
Only the whole response (pointer "") belongs to no rule.

The wire rules (SSE-*, `refold.reference.chat.SSE_RULES`) own no pointer either: a decoder's
failure is about events, not about a `chat.completion`, and the `sse` suite asserts
plainly rather than through `ConformanceFailure`, so it is charged to the marks of the
failing test, which name wire rules only, never to a spec rule.
"""

from __future__ import annotations

import re

from ._sse_rules import ALL_RULES, SSE_RULES

__all__ = ["OUTSIDE_THE_SHAPE", "POINTERLESS", "rules_at"]

_CALL = r"/choices/\d+/message/tool_calls/\d+"
_LADDER = (
    "TOOL-1-OPEN",
    "TOOL-2-NEW-ID",
    "TOOL-3-RESEND",
    "TOOL-4-SPLIT",
    "TOOL-5-APPEND",
    "TOOL-INDEX",
    "TOOL-NO-INDEX",
)

_TABLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"/id", ("ENV-ID",)),
    (r"/object", ("ENV-OBJECT",)),
    (r"/created", ("ENV-CREATED",)),
    (r"/model", ("ENV-MODEL",)),
    (r"/error(/.*)?", ("ENV-NO-ERROR",)),
    (r"/(provider|system_fingerprint|service_tier)", ("PROV-LAST",)),
    (r"/usage(/.*)?", ("USAGE-LAST",)),
    (r"/choices(/\d+)?(/index)?", ("CHOICE-KEY", "CHOICE-ORDER")),
    (r"/choices/\d+/native_finish_reason", ("PROV-NATIVE-FINISH",)),
    (r"/choices/\d+/finish_reason", ("CHOICE-FINISH",)),
    (r"/choices/\d+/message", ("CHOICE-KEY",)),
    (r"/choices/\d+/message/role", ("CHOICE-ROLE",)),
    (r"/choices/\d+/message/content", ("TEXT-JOIN",)),
    (r"/choices/\d+/message/refusal", ("TEXT-REFUSAL",)),
    (r"/choices/\d+/message/(reasoning|reasoning_content)", ("TEXT-REASONING",)),
    (r"/choices/\d+/message/annotations(/.*)?", ("TEXT-ANNOTATIONS",)),
    (
        r"/choices/\d+/message/reasoning_details(/\d+)?",
        ("RD-MERGE", "RD-INDEXLESS", "RD-AS-SENT", "RD-ORDER"),
    ),
    (
        r"/choices/\d+/message/reasoning_details/\d+/(text|summary)",
        ("RD-MERGE", "RD-INDEXLESS", "RD-ORDER"),
    ),
    (r"/choices/\d+/message/reasoning_details/\d+/index", ("RD-ORDER",)),
    (r"/choices/\d+/message/reasoning_details/\d+/type", ("RD-MERGE", "RD-AS-SENT")),
    (
        r"/choices/\d+/message/reasoning_details/\d+/(?!text$|summary$|index$|type$)[^/]+(/.*)?",
        ("RD-FIELDS", "RD-AS-SENT"),
    ),
    (r"/choices/\d+/logprobs(/.*)?", ("LP-CONCAT", "LP-SHAPE", "LP-SKIP")),
    (r"/choices/\d+/message/tool_calls(/\d+)?", (*_LADDER, "TOOL-OUTPUT")),
    (rf"{_CALL}/id", ("TOOL-ADOPT-ID", *_LADDER)),
    (rf"{_CALL}/type", ("TOOL-TYPE",)),
    (rf"{_CALL}/index", ("TOOL-OUTPUT",)),
    (rf"{_CALL}/function", ("TOOL-NAME", "TOOL-5-APPEND", "TOOL-OUTPUT")),
    (rf"{_CALL}/function/name", ("TOOL-NAME",)),
    (rf"{_CALL}/function/arguments", ("TOOL-5-APPEND", "TOOL-RAW", "TOOL-EMPTY-ARGS", *_LADDER)),
)
_COMPILED = tuple((re.compile(pattern), frozenset(rules)) for pattern, rules in _TABLE)

OUTSIDE_THE_SHAPE: frozenset[str] = frozenset({"ROB-UNKNOWN-KEYS"})
"""The rules of a pointer the output shape has no place for."""

POINTERLESS: frozenset[str] = frozenset(
    {"ROB-NULL-ENTRIES", "ROB-BLANK", "ROB-WRONG-TYPE", "ROB-NOT-OBJECT", "CHOICE-DELTA-NULL"}
    | {rule for rule in ALL_RULES if rule.startswith("LIFE-")}
    | set(SSE_RULES)
)
"""The rules no difference in a response implicates by position."""


def rules_at(pointer: str) -> frozenset[str]:
    """The rules that decide the value at `pointer` of a `chat.completion`: the table's,
    ROB-UNKNOWN-KEYS for a place the output shape does not have, none for the whole
    response."""
    for pattern, rules in _COMPILED:
        if pattern.fullmatch(pointer):
            return rules
    return OUTSIDE_THE_SHAPE if pointer else frozenset()
