"""Which shapes a target is sent, from the features it claims: one table.

A stream drawn for a test may only depart from OpenAI's own shape (split family 1) in
ways whose fold the target claims; otherwise a target that folds everything it claims
correctly fails on a shape it never claimed (a `"choices": [null]` sent to a target
that does not claim `robustness`), and the failure is charged to the test's rules.
Every strategy that decides whether to draw a shape asks `allows`.
"""

from __future__ import annotations

from collections.abc import Mapping

from refold.reference.chat import FEATURES

from .._claims import ROBUSTNESS, TEXT, Claims

__all__ = ["SHAPES", "allows", "families_for"]

_REPAIR = frozenset({"tool_call_repair"})

SHAPES: Mapping[str, frozenset[str]] = {
    # lossless split families (the spec's "Lossless split families")
    "family 1": TEXT,  # OpenAI's own shape
    "family 2": TEXT,  # identity repeated (roles, and ids/names of calls)
    "family 3": _REPAIR,  # several calls sharing an index
    "family 4": _REPAIR,  # no index on any tool fragment
    "family 5": TEXT,  # the id arriving late (calls only with tool_calls)
    "family 6": _REPAIR,  # re-sent arguments
    "family 7": frozenset({"empty_arguments"}),  # calls without arguments
    "family 8": ROBUSTNESS,  # noise: null entries, blank values, unknown keys, ...
    # damage to a stream (differential checks)
    "error chunk": TEXT,  # ENV-NO-ERROR, LIFE-ERROR
    "wrong types": ROBUSTNESS,  # ROB-WRONG-TYPE
    "index lost": ROBUSTNESS | _REPAIR,  # TOOL-NO-INDEX on any fragment
    # single values, for strategies that draw chunks one by one (the lifecycle machine)
    "null entries": ROBUSTNESS,  # ROB-NULL-ENTRIES
    "blank values": ROBUSTNESS,  # ROB-BLANK: "", whitespace and null ids, types, names, roles
    # `arguments: null` (ROB-WRONG-TYPE) on a call's only fragment leaves it without
    # arguments, which is TOOL-EMPTY-ARGS's
    "null arguments": ROBUSTNESS | {"empty_arguments"},
    "index-less fragments": _REPAIR,  # TOOL-NO-INDEX
    "new id on an index": _REPAIR,  # TOOL-2-NEW-ID
    "complete argument fragments": _REPAIR,  # TOOL-3-RESEND, TOOL-4-SPLIT
    "argument-less calls": frozenset({"empty_arguments"}),  # TOOL-EMPTY-ARGS
    "several choices": frozenset({"choices"}),
    "tool calls": frozenset({"tool_calls"}),
    "usage": frozenset({"usage"}),
}
"""Each shape a strategy can draw and the features a target must claim (all of them) to
be sent it."""


_CLAIMS = Claims(SHAPES, FEATURES)

allows = _CLAIMS.allows
families_for = _CLAIMS.families_for
