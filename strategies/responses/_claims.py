"""What an OpenAI Responses target is sent, from the features it claims: one table.

A drawn response or stream may only contain what the target claims: an item or part
type, a departure from OpenAI's own shape (split family 1) or a kind of damage whose
rules belong to a feature the target does not claim would charge the failure to rules
it is not judged on. Every strategy that decides whether to draw something asks `allows`.
"""

from __future__ import annotations

from collections.abc import Mapping

from refold.reference.responses import FEATURES

from .._claims import LIFECYCLE, ROBUSTNESS, TEXT, Claims

__all__ = ["CLAIMS", "FEATURES", "SHAPES", "allows", "check_features", "families_for"]


SHAPES: Mapping[str, frozenset[str]] = {
    # what a known response may hold (`responses`)
    "message items": TEXT,  # RS-TEXT-JOIN
    "logprobs": TEXT,  # parts as sent (RS-DONE-REPLACES, RS-ITEM-DONE-REPLACES)
    "hosted-tool items": TEXT,  # RS-HOSTED-ITEMS
    "incomplete responses": TEXT,  # RS-INCOMPLETE
    "failed responses": TEXT,  # RS-FAILED
    "extra top-level keys": TEXT,  # RS-TERMINAL-BASE
    "refusal parts": frozenset({"refusal"}),  # RS-REFUSAL
    "function_call items": frozenset({"tool_calls"}),  # RS-CALL-IDS, RS-ARGS-*
    "reasoning items": frozenset({"reasoning"}),  # RS-REASONING-*
    "annotations": frozenset({"annotations"}),  # RS-ANNOTATIONS
    "usage": frozenset({"usage"}),  # RS-USAGE-TERMINAL
    # lossless split families (the spec's "Lossless split families")
    "family 1": TEXT,  # OpenAI's own shape
    "family 2": TEXT,  # terminal output omitted (RS-OUTPUT-RECOVER)
    "family 3": TEXT,  # .done-only items
    "family 4": TEXT,  # deltas-only items (RS-RECOVER-FROM-DELTAS, RS-RECOVER-STATUS)
    "family 5": TEXT,  # rotating or missing item ids, shared call ids (RS-KEY-OUTPUT-INDEX)
    "family 6": TEXT,  # orphan content events (RS-ORPHAN, RS-READD)
    "family 7": TEXT,  # noise; its robustness kinds are gated below
    # family 7's kinds of noise
    "sequence numbers": TEXT,  # RS-SEQ-ARRIVAL
    "queued": TEXT,  # a lifecycle event
    "earlier lifecycle values": TEXT,  # RS-ENV-TERMINAL
    "repeated terminals": TEXT,  # RS-TERMINAL-REPEAT
    "keepalives": ROBUSTNESS,  # RS-KEEPALIVE
    "unknown events": ROBUSTNESS,  # RS-KEEPALIVE
    "unknown keys": ROBUSTNESS,  # RS-UNKNOWN-KEYS: obfuscation, vendor keys, delta logprobs
    # damage to a stream (differential checks, `event_streams`)
    "partial terminal output": TEXT,  # RS-OUTPUT-TERMINAL
    "contradicting done values": TEXT,  # RS-DONE-REPLACES, RS-ITEM-DONE-REPLACES
    "index collisions": TEXT,  # RS-ROUTE
    "orphan indexes": TEXT,  # RS-ORPHAN on an index no item has
    "mismatched kinds": TEXT,  # RS-KIND-MATCH
    "error event": TEXT,  # RS-ERROR-EVENT
    "truncated": LIFECYCLE,  # LIFE-RS-SNAPSHOT, LIFE-RS-FINISHED
    "events after the terminal": LIFECYCLE,  # LIFE-RS-AFTER
    "wrong types": ROBUSTNESS,  # RS-WRONG-TYPE
    "null items": ROBUSTNESS,  # RS-NULL-ITEM
}
"""Each thing a strategy can draw and the features a target must claim (all of them)
to be sent it."""


CLAIMS = Claims(SHAPES, FEATURES)

allows = CLAIMS.allows
families_for = CLAIMS.families_for
check_features = CLAIMS.check_features
