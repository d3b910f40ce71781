"""Which GM rules a difference is evidence against, from where it is in the response.

Each JSON pointer of a folded `GenerateContentResponse` is mapped to the rules that
decide the value there (gemini-fold.md, "Pointer → rule attribution"), so a failure found
by a test of several rules is charged to the ones its differences point at. Rules about
reading a chunk whatever its fields (`POINTERLESS`: wrong types, the lifecycle, the wire)
own no pointer. A top-level place the table does not name is a key every chunk's snapshot
carries (GM-ENV-SNAPSHOT: `createTime`, `modelStatus`) or an unknown key kept where it
arrived (GM-UNKNOWN-KEYS): such a place is charged to those (`OUTSIDE_THE_SHAPE`). Only
the whole response (pointer "") belongs to no rule.

This is the dialect's one table: the harness's `refold.dialects.gemini` charges with it.
"""

from __future__ import annotations

import re

from ._rules import RULES

__all__ = ["OUTSIDE_THE_SHAPE", "POINTERLESS", "rules_at"]

POINTERLESS: frozenset[str] = frozenset(
    {
        "GM-ROB-NOT-OBJECT",
        "GM-ROB-WRONG-TYPE",
        "GM-LIFE-EMPTY",
        "GM-LIFE-SNAPSHOT",
        "GM-LIFE-FINISHED",
        "GM-LIFE-ERROR",
        "GM-LIFE-TRUNCATED",
        "GM-LIFE-AFTER-FINISH",
        "GM-WIRE-SSE",
        "GM-WIRE-ARRAY",
    }
)
"""Rules that decide which chunks count and how, not the value at any one place."""

_CANDIDATE = r"/candidates/\d+"
_PART = rf"{_CANDIDATE}/content/parts/\d+"
_BELOW = r"(/.*)?"
_SLOTS = ("GM-CAND-INDEX", "GM-CAND-ORDER", "GM-ROB-NULL-ENTRIES")
"""Which candidate a slot of `candidates` holds."""
_PARTS = (
    "GM-TEXT-JOIN",
    "GM-TEXT-EMPTY",
    "GM-THOUGHT-APART",
    "GM-SIGNATURE",
    "GM-CALL-WHOLE",
    "GM-CALL-STREAMED",
    "GM-CODE",
    "GM-INLINE",
    "GM-PART-OTHER",
    "GM-ROB-NULL-ENTRIES",
    "GM-CAND-INDEX",
)
"""Which parts there are, and which part a slot of `parts` holds."""
_TEXT = ("GM-TEXT-JOIN", "GM-TEXT-EMPTY", "GM-THOUGHT-APART", "GM-SIGNATURE")
_CALL = ("GM-CALL-WHOLE", "GM-CALL-STREAMED")

_TABLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"/candidates", ("GM-CAND-NONE", *_SLOTS)),
    (_CANDIDATE, _SLOTS),
    (rf"{_CANDIDATE}/index", ("GM-CAND-INDEX", "GM-CAND-ORDER")),
    (rf"{_CANDIDATE}/finishReason", ("GM-FINISH",)),
    (rf"{_CANDIDATE}/content(/role)?", ("GM-ROLE",)),
    (rf"{_CANDIDATE}/content/parts", _PARTS),
    (_PART, _PARTS),
    (rf"{_PART}/text", _TEXT),
    (rf"{_PART}/thought", ("GM-THOUGHT-APART",)),
    (rf"{_PART}/thoughtSignature", ("GM-SIGNATURE", "GM-CALL-STREAMED")),
    (rf"{_PART}/functionCall/id", ("GM-CALL-ID", *_CALL)),
    (rf"{_PART}/functionCall/args{_BELOW}", ("GM-CALL-PARTIAL-ARGS", *_CALL)),
    (rf"{_PART}/functionCall/willContinue", ("GM-CALL-STREAMED",)),
    (rf"{_PART}/functionCall/partialArgs{_BELOW}", ("GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS")),
    (rf"{_PART}/functionCall{_BELOW}", _CALL),
    (rf"{_PART}/(executableCode|codeExecutionResult){_BELOW}", ("GM-CODE",)),
    (rf"{_PART}/(inlineData|fileData){_BELOW}", ("GM-INLINE",)),
    (rf"{_PART}/.+", ("GM-PART-OTHER", "GM-UNKNOWN-KEYS")),
    (rf"{_CANDIDATE}/content/.+", ("GM-ROLE", "GM-UNKNOWN-KEYS")),
    (rf"{_CANDIDATE}/safetyRatings{_BELOW}", ("GM-SAFETY", "GM-ROB-NULL-ENTRIES")),
    (rf"{_CANDIDATE}/citationMetadata{_BELOW}", ("GM-CITATIONS", "GM-ROB-NULL-ENTRIES")),
    (rf"{_CANDIDATE}/groundingMetadata{_BELOW}", ("GM-GROUNDING",)),
    (rf"{_CANDIDATE}/.+", ("GM-CAND-KEYS", "GM-UNKNOWN-KEYS")),
    (rf"/usageMetadata{_BELOW}", ("GM-USAGE-LAST",)),
    (rf"/promptFeedback{_BELOW}", ("GM-PROMPT-FEEDBACK",)),
    (r"/(modelVersion|responseId)", ("GM-ENV-ID",)),
    (rf"/error{_BELOW}", ("GM-ENV-NO-ERROR",)),
)
"""Pointer patterns, most specific first (the spec's table, row for row, but its last
row: a top-level key it does not name is `OUTSIDE_THE_SHAPE`); the first that matches the
whole pointer wins."""

OUTSIDE_THE_SHAPE: frozenset[str] = frozenset({"GM-ENV-SNAPSHOT", "GM-UNKNOWN-KEYS"})
"""The rules of a place the table does not name: a key every chunk's snapshot carries,
taken last and whole, or an unknown key kept where it arrived."""

_COMPILED = tuple((re.compile(pattern), frozenset(rules)) for pattern, rules in _TABLE)

assert all(rule in RULES for _, rules in _COMPILED for rule in rules)
assert RULES.keys() >= POINTERLESS | OUTSIDE_THE_SHAPE


def rules_at(pointer: str) -> frozenset[str]:
    """The rules that decide the value at an RFC 6901 pointer of a folded response."""
    for pattern, rules in _COMPILED:
        if pattern.fullmatch(pointer):
            return rules
    return OUTSIDE_THE_SHAPE if pointer else frozenset()  # "": the whole response
