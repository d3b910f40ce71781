"""What an Anthropic Messages target is sent, from the features it claims: one table.

A drawn message or stream may only contain what the target claims: a block type, a
message field, a departure from Anthropic's own shape (split family 1) or a kind of
damage whose rules belong to a feature the target does not claim would charge the
failure to rules it is not judged on. Every strategy that decides whether to draw
something asks `allows`.
"""

from __future__ import annotations

from collections.abc import Mapping

from refold.reference.anthropic import FEATURES

from .._claims import LIFECYCLE, ROBUSTNESS, TEXT, Claims

__all__ = ["CLAIMS", "FEATURES", "SHAPES", "allows", "check_features", "families_for"]


SHAPES: Mapping[str, frozenset[str]] = {
    # what a known message may hold (`messages`)
    "text blocks": TEXT,  # AM-TEXT-JOIN
    "unknown message keys": TEXT,  # AM-START-BASE
    "citations": frozenset({"citations"}),  # AM-CITATIONS-APPEND
    "tool_use blocks": frozenset({"tool_use"}),  # AM-TOOL-*
    "server_tool_use blocks": frozenset({"server_tools"}),  # AM-SERVER-TOOL
    "server tool results": frozenset({"server_tools"}),  # AM-RESULT-AS-SENT
    "thinking blocks": frozenset({"thinking"}),  # AM-THINK-*
    "redacted_thinking blocks": frozenset({"thinking"}),  # AM-REDACTED
    "unknown blocks": ROBUSTNESS,  # AM-UNKNOWN-BLOCK
    "stop_details": frozenset({"stop_details"}),  # AM-STOP-DETAILS, AM-CONTAINER
    "usage": frozenset({"usage"}),  # AM-USAGE-*
    # lossless split families (the spec's "Lossless split families")
    "family 1": TEXT,  # Anthropic's own shape
    "family 2": TEXT,  # text split anywhere, a prefix on the start event
    "family 3": frozenset({"tool_use"}),  # tool input as any JSON text, split anywhere
    "family 4": frozenset({"thinking"}),  # thinking split, one signature_delta
    "family 5": frozenset({"citations"}),  # citations among the text deltas
    "family 6": TEXT,  # delta-less blocks whole on the start (their own plain shape)
    "family 7": frozenset({"usage"}),  # usage re-reported, several message_delta events
    "family 8": ROBUSTNESS,  # pings, unknown events, unknown envelope keys
    "family 9": TEXT,  # finished blocks inside message_start (AM-START-CONTENT)
    "events after message_stop": ROBUSTNESS | LIFECYCLE,  # AM-LIFE-AFTER-STOP
    # damage to a stream (differential checks, `event_streams`)
    "truncated": LIFECYCLE,  # AM-LIFE-TRUNCATED
    "error event": LIFECYCLE,  # AM-LIFE-ERROR
    "interleaved blocks": TEXT,  # AM-DELTA-ROUTE
    "index gaps": TEXT,  # AM-BLOCK-ORDER
    "repeated starts": TEXT,  # AM-BLOCK-REOPEN, AM-START-ONCE
    "mismatched deltas": TEXT,  # AM-DELTA-MATCH
    "blank stop reasons": TEXT,  # AM-STOP-REASON
    "invalid tool input": frozenset({"tool_use"}),  # AM-TOOL-INVALID
    "reordered events": ROBUSTNESS,  # AM-BEFORE-START, AM-DELTA-ROUTE on missing blocks
    "unknown deltas": ROBUSTNESS,  # AM-UNKNOWN-DELTA
    "pings": ROBUSTNESS,  # AM-PING (single events, `lifecycle_events`)
    "unknown events": ROBUSTNESS,  # AM-UNKNOWN-EVENT (single events, `lifecycle_events`)
    "wrong types": ROBUSTNESS,  # AM-ROB-WRONG-TYPE
    "wrong usage types": ROBUSTNESS | {"usage"},  # AM-ROB-WRONG-TYPE on AM-USAGE-REPLACE
    "resent signatures": frozenset({"thinking"}),  # AM-THINK-SIGNATURE (AQ10)
}
"""Each thing a strategy can draw and the features a target must claim (all of them)
to be sent it."""


CLAIMS = Claims(SHAPES, FEATURES)

allows = CLAIMS.allows
families_for = CLAIMS.families_for
check_features = CLAIMS.check_features
