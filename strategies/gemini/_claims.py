"""What a Gemini target is sent, from the features it claims: one table.

A drawn response or stream may only contain what the target claims: a part kind, a
candidate field, a split family or a kind of damage whose rules belong to a feature the
target does not claim would charge a failure to rules it is not judged on. Every strategy
that decides whether to draw something asks `allows`.
"""

from __future__ import annotations

from collections.abc import Mapping

from refold.reference.gemini import FEATURES

from .._claims import LIFECYCLE, ROBUSTNESS, TEXT, Claims

__all__ = ["CLAIMS", "FEATURES", "SHAPES", "allows", "check_features", "families_for"]


SHAPES: Mapping[str, frozenset[str]] = {
    # what a known response may hold (`responses`)
    "text parts": TEXT,  # GM-TEXT-JOIN
    "known candidate keys": TEXT,  # GM-CAND-KEYS (finishMessage, avgLogprobs)
    "several candidates": frozenset({"candidates"}),  # GM-CAND-ORDER
    "thought parts": frozenset({"thinking"}),  # GM-THOUGHT-APART
    "thought signatures": frozenset({"thinking"}),  # GM-SIGNATURE
    "function calls": frozenset({"tool_calls"}),  # GM-CALL-WHOLE, GM-CALL-ID
    "code parts": frozenset({"code_execution"}),  # GM-CODE
    "media parts": frozenset({"media"}),  # GM-INLINE
    "safety ratings": frozenset({"safety"}),  # GM-SAFETY
    "prompt feedback": frozenset({"safety"}),  # GM-PROMPT-FEEDBACK, GM-CAND-NONE
    "citations": frozenset({"citations"}),  # GM-CITATIONS
    "grounding": frozenset({"grounding"}),  # GM-GROUNDING
    "usage": frozenset({"usage"}),  # GM-USAGE-LAST
    "unknown keys": ROBUSTNESS,  # GM-UNKNOWN-KEYS, GMD-UNKNOWN-PART
    # lossless split families (`SPLIT_FAMILIES`)
    "family 1": TEXT,
    "family 2": TEXT,
    "family 3": TEXT,
    "family 4": frozenset({"tool_calls", "streamed_arguments"}),
    "family 5": TEXT,
    "family 6": TEXT,
    "family 7": TEXT,
    "family 8": frozenset({"usage"}),
    "usage after the finish chunk": frozenset({"usage"}) | LIFECYCLE,  # GM-LIFE-AFTER-FINISH
    # damage to a stream (differential checks, `chunk_streams`)
    "truncated": LIFECYCLE,  # GM-LIFE-TRUNCATED, GMD-CUT
    "error chunk": LIFECYCLE,  # GM-LIFE-ERROR, GMD-ERROR-CHUNK, GMD-AFTER-ERROR
    "index gaps": frozenset({"candidates"}),  # GM-CAND-ORDER, GMD-INDEX-GAP
    "content after finish": TEXT,  # GM-FINISH, GMD-AFTER-FINISH-CONTENT
    "second signature": frozenset({"thinking"}),  # GM-SIGNATURE, GMD-SECOND-SIGNATURE
    "mismatched pieces": frozenset({"tool_calls", "streamed_arguments"}),  # GMD-ARGS-MISMATCH
    "null entries": ROBUSTNESS,  # GM-ROB-NULL-ENTRIES, GMD-NULL-ENTRY
    "wrong types": ROBUSTNESS,  # GM-ROB-WRONG-TYPE, GMD-WRONG-TYPE
    "not objects": ROBUSTNESS,  # GM-ROB-NOT-OBJECT (single chunks, `lifecycle_chunks`)
}
"""Each thing a strategy can draw and the features a target must claim (all of them)
to be sent it."""


CLAIMS = Claims(SHAPES, FEATURES)

allows = CLAIMS.allows
families_for = CLAIMS.families_for
check_features = CLAIMS.check_features
