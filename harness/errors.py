"""Errors of the harness: a misbehaving target, and a misconfigured run.

RefoldError (refold.reference)
├── TargetError        the implementation under test raised, hung, crashed or
│                      returned something that is not a JSON object
└── UsageError         the run is misconfigured: an unknown target, a bad baseline
"""

from __future__ import annotations

import json

from refold.reference import JSON, RefoldError

__all__ = ["TargetError", "UsageError", "preview"]


class TargetError(RefoldError):
    """The target misbehaved while the suite called it; the message says how."""

    def __init__(self, message: str, *, kind: str = "raised") -> None:
        super().__init__(message)
        self.kind = kind  # raised | timeout | crashed | not-an-object | mutated-input | protocol


class UsageError(RefoldError):
    """The harness was asked for something it cannot do (bad target, bad baseline)."""


def preview(value: JSON, limit: int = 200) -> str:
    """A target's reply as an error message quotes it: JSON, cut to `limit` characters."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 3] + "..."
