"""The two kinds of registered departure, each as the short constructor every dialect's
registry (`refold.dialects.<dialect>._departures`) writes its rows with: `observed`, which
names who sends it and where that is shown, and `synthetic`, which nobody is known to send.
"""

from __future__ import annotations

from .shapes import Departure

__all__ = ["observed", "synthetic"]


def observed(id: str, summary: str, *provenance: str) -> Departure:
    """A departure a named provider, proxy or gateway is known to send, with where it is
    shown (`provenance`: at least one)."""
    return Departure(id, "observed", summary, provenance)


def synthetic(id: str, summary: str) -> Departure:
    """A departure the strategies and rule examples make that nobody is known to send."""
    return Departure(id, "synthetic", summary)
