"""What a fold policy is: a small, named variation of a dialect's reference fold.

A policy is what a maintainer would call one way of folding a stream that the spec does
not allow ("sums usage across chunks"), written as the reference composed with that one
change: the stream rewritten before the reference folds it, or the folded value rewritten
after, or a raise where the variation raises. `refold.verdicts.diagnosis` folds a failing stream
with each policy of the target's dialect and names those that reproduce the target's
output exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from refold.reference import JSON, JSONObject

__all__ = ["Policy", "PolicyRaised"]


class PolicyRaised(Exception):
    """A policy's fold raises here, as the libraries applying it do."""


@dataclass(frozen=True)
class Policy:
    """One named fold policy of a dialect."""

    name: str
    """What a maintainer calls it: "sums usage across chunks"."""
    rules: tuple[str, ...]
    """The rules of the dialect's spec it breaks."""
    libraries: tuple[str, ...]
    """The libraries (with the versions measured) known to apply it, from the committed
    reports, the pinned findings tests and the research catalogues."""
    fold: Callable[[list[JSON]], JSONObject]
    """The policy's fold of a whole stream; raises `PolicyRaised` where the policy raises."""
    example: str = ""
    """The module of `examples/broken/` that applies it (without `.py`)."""
    reads: Callable[[JSON], JSON] | None = None
    """How the target's output is read before it is compared, for a policy whose output is
    not a function of the stream (an id generated per stream); None: as it is."""
