"""Which GM rules a difference is evidence against, from where it is in the response.

The dialect's counterpart of `refold.dialects.openai_responses.attribution`: each JSON
pointer of a folded `GenerateContentResponse` is mapped to the rules that decide the
value there (gemini-fold.md, "Pointer → rule attribution"), so a failure found by a test
of several rules is charged to the ones its differences point at. Rules about reading a
chunk whatever its fields (`POINTERLESS`: a chunk that is not an object, wrong types, the
lifecycle, the two wire decoders) own no pointer.

A top-level place the table does not name is a key every chunk's snapshot carries
(GM-ENV-SNAPSHOT: `createTime`, `modelStatus`) or an unknown key kept where it arrived
(GM-UNKNOWN-KEYS): such a place is charged to those (`OUTSIDE_THE_SHAPE`). Only the
whole response (pointer "") belongs to no rule.

The reference keeps the same table (`refold.reference.gemini.rules_at`, written before
the dialect was registered); `tests/dialects/gemini/test_gemini_dialect.py` keeps the two
equal at every place of `PLACES`.
"""

from __future__ import annotations

from refold.reference.gemini import RULES
from refold.verdicts.pointer_table import PointerTable, compiled

__all__ = ["OUTSIDE_THE_SHAPE", "PLACES", "POINTERLESS", "TABLE", "rules_at"]

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
row: a top-level key it does not name is `OUTSIDE_THE_SHAPE`)."""

POINTERLESS: frozenset[str] = frozenset(
    {"GM-ROB-NOT-OBJECT", "GM-ROB-WRONG-TYPE", "GM-WIRE-SSE", "GM-WIRE-ARRAY"}
    | {rule for rule in RULES if rule.startswith("GM-LIFE-")}
)
"""The rules no difference in a response implicates by position."""

OUTSIDE_THE_SHAPE: frozenset[str] = frozenset({"GM-ENV-SNAPSHOT", "GM-UNKNOWN-KEYS"})
"""The rules of a top-level place the table does not name: a key every chunk's snapshot
carries, taken last and whole, or an unknown key kept where it arrived."""

TABLE = PointerTable(
    compiled(_TABLE),
    OUTSIDE_THE_SHAPE,
    places=(
        "/candidates",
        "/candidates/0",
        "/candidates/0/index",
        "/candidates/0/finishReason",
        "/candidates/0/content",
        "/candidates/0/content/role",
        "/candidates/0/content/parts",
        "/candidates/0/content/parts/0",
        "/candidates/0/content/parts/0/text",
        "/candidates/0/content/parts/0/thought",
        "/candidates/0/content/parts/0/thoughtSignature",
        "/candidates/0/content/parts/0/functionCall/id",
        "/candidates/0/content/parts/0/functionCall/args",
        "/candidates/0/content/parts/0/functionCall/args/city",
        "/candidates/0/content/parts/0/functionCall/willContinue",
        "/candidates/0/content/parts/0/functionCall/partialArgs/0",
        "/candidates/0/content/parts/0/functionCall",
        "/candidates/0/content/parts/0/functionCall/name",
        "/candidates/0/content/parts/0/executableCode",
        "/candidates/0/content/parts/0/codeExecutionResult/output",
        "/candidates/0/content/parts/0/inlineData",
        "/candidates/0/content/parts/0/fileData/fileUri",
        "/candidates/0/content/parts/0/key",
        "/candidates/0/content/key",
        "/candidates/0/safetyRatings",
        "/candidates/0/safetyRatings/0",
        "/candidates/0/citationMetadata",
        "/candidates/0/citationMetadata/citationSources/0",
        "/candidates/0/groundingMetadata",
        "/candidates/0/groundingMetadata/webSearchQueries",
        "/candidates/0/key",
        "/usageMetadata",
        "/usageMetadata/promptTokenCount",
        "/promptFeedback",
        "/promptFeedback/blockReason",
        "/modelVersion",
        "/responseId",
        "/error",
        "/error/code",
        "/key",
    ),
)
"""Which rules decide the value at each place of a folded response: `rules_at`."""
PLACES = TABLE.places
rules_at = TABLE.rules_at
