"""What an OpenAI Responses target is sent, from the features it claims: one table.

A drawn response or stream may only contain what the target claims: an item or part
type, a departure from OpenAI's own shape (split family 1) or a kind of damage whose
rules belong to a feature the target does not claim would charge the failure to rules
it is not judged on. Every strategy that decides whether to draw something asks `allows`.
"""

from __future__ import annotations

from collections.abc import Mapping

from refold.reference.responses import FEATURES

from .._claims import Claims

__all__ = ["FEATURES", "SHAPES", "allows", "check_features", "families_for"]

_TEXT = frozenset({"text"})
_ROBUST = frozenset({"robustness"})
_LIFE = frozenset({"lifecycle"})

SHAPES: Mapping[str, frozenset[str]] = {
    # what a known response may hold (`responses`)
    "message items": _TEXT,  # RS-TEXT-JOIN
    "logprobs": _TEXT,  # parts as sent (RS-DONE-REPLACES, RS-ITEM-DONE-REPLACES)
    "hosted-tool items": _TEXT,  # RS-HOSTED-ITEMS
    "incomplete responses": _TEXT,  # RS-INCOMPLETE
    "failed responses": _TEXT,  # RS-FAILED
    "extra top-level keys": _TEXT,  # RS-TERMINAL-BASE
    "refusal parts": frozenset({"refusal"}),  # RS-REFUSAL
    "function_call items": frozenset({"tool_calls"}),  # RS-CALL-IDS, RS-ARGS-*
    "reasoning items": frozenset({"reasoning"}),  # RS-REASONING-*
    "annotations": frozenset({"annotations"}),  # RS-ANNOTATIONS
    "usage": frozenset({"usage"}),  # RS-USAGE-TERMINAL
    # lossless split families (the spec's "Lossless split families")
    "family 1": _TEXT,  # OpenAI's own shape
    "family 2": _TEXT,  # terminal output omitted (RS-OUTPUT-RECOVER)
    "family 3": _TEXT,  # .done-only items
    "family 4": _TEXT,  # deltas-only items (RS-RECOVER-FROM-DELTAS, RS-RECOVER-STATUS)
    "family 5": _TEXT,  # rotating or missing item ids (RS-KEY-OUTPUT-INDEX)
    "family 6": _TEXT,  # orphan content events (RS-ORPHAN, RS-READD)
    "family 7": _TEXT,  # noise; its robustness kinds are gated below
    # family 7's kinds of noise
    "sequence numbers": _TEXT,  # RS-SEQ-ARRIVAL
    "queued": _TEXT,  # a lifecycle event
    "earlier lifecycle values": _TEXT,  # RS-ENV-TERMINAL
    "repeated terminals": _TEXT,  # RS-TERMINAL-REPEAT
    "keepalives": _ROBUST,  # RS-KEEPALIVE
    "unknown events": _ROBUST,  # RS-KEEPALIVE
    "unknown keys": _ROBUST,  # RS-UNKNOWN-KEYS: obfuscation, vendor keys, delta logprobs
    # damage to a stream (differential checks, `event_streams`)
    "partial terminal output": _TEXT,  # RS-OUTPUT-TERMINAL
    "contradicting done values": _TEXT,  # RS-DONE-REPLACES, RS-ITEM-DONE-REPLACES
    "index collisions": _TEXT,  # RS-ROUTE
    "orphan indexes": _TEXT,  # RS-ORPHAN on an index no item has
    "mismatched kinds": _TEXT,  # RS-KIND-MATCH
    "error event": _TEXT,  # RS-ERROR-EVENT
    "truncated": _LIFE,  # LIFE-RS-SNAPSHOT, LIFE-RS-FINISHED
    "events after the terminal": _LIFE,  # LIFE-RS-AFTER
    "wrong types": _ROBUST,  # RS-WRONG-TYPE
    "null items": _ROBUST,  # RS-NULL-ITEM
}
"""Each thing a strategy can draw and the features a target must claim (all of them)
to be sent it."""


_CLAIMS = Claims(SHAPES, FEATURES)

allows = _CLAIMS.allows
families_for = _CLAIMS.families_for
check_features = _CLAIMS.check_features
