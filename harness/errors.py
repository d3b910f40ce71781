"""Errors of the harness: a misbehaving target, and a misconfigured run.

    RefoldError (refold.reference)
    ├── TargetError        the implementation under test raised, hung, crashed or
    │                      returned something that is not a JSON object
    └── UsageError         the run is misconfigured: an unknown target, a bad baseline
"""

from __future__ import annotations

from refold.reference import RefoldError

__all__ = ["TargetError", "UsageError"]


class TargetError(RefoldError):
    """The target misbehaved while the suite called it; the message says how."""

    def __init__(self, message: str, *, kind: str = "raised") -> None:
        super().__init__(message)
        self.kind = kind  # raised | timeout | crashed | not-an-object | mutated-input | protocol


class UsageError(RefoldError):
    """The harness was asked for something it cannot do (bad target, bad baseline)."""
