"""One broken rule of the events contract, as the checker reports it, and what it costs."""

from __future__ import annotations

from dataclasses import dataclass

from ..._impact import impact_of
from ..._json import JSON
from ..._outcomes import Impact
from .._compare import differences

__all__ = ["RULE_IMPACTS", "Violation", "impact_between"]

RULE_IMPACTS: dict[str, Impact] = {
    # a frame, a Completed, a completion or a portable field the stream holds is missing
    "EV-FRAME-COVER": "loss",
    "EV-STARTED-COMPLETED": "loss",
    "PERSIST-PORTABLE": "loss",
    # an empty delta carries nothing the stream holds: only "" is there that should not be
    "EV-NO-EMPTY-DELTA": "representation",
}
"""What breaking a rule costs when its check states nothing narrower (verdicts.md §3):
these rules' violations are about something missing or empty; every other rule's is a
value present but wrong or in the wrong order (`corruption`)."""


def impact_between(expected: JSON, received: JSON) -> Impact:
    """What a value received where `expected` was due costs (verdicts.md §3, read off
    their canonical differences): `corruption` when the comparison finds none to read."""
    return impact_of(differences(expected, received), crashed=False) or "corruption"


@dataclass(frozen=True)
class Violation:
    """A rule an adapter's output breaks, where, and what it costs.

    `event` is the 0-based index of the event in the adapter's event list, `frame` the
    0-based index of the input frame, `pointer` a JSON pointer (RFC 6901) into that event,
    or into the persisted value for PERSIST-* rules; each is None when the violation has
    no such place. `message` says what was received and what was expected. `impact` is
    verdicts.md §3's: `crash` when the adapter raised, `loss` when an event or a value the
    stream holds is missing, `corruption` when one is present but wrong or out of order,
    `representation` when only null, "", absent, [] or {} differ; None (the default)
    takes the rule's (`RULE_IMPACTS`, else `corruption`).
    """

    rule: str
    message: str
    event: int | None = None
    frame: int | None = None
    pointer: str | None = None
    impact: Impact | None = None

    def __post_init__(self) -> None:
        if self.impact is None:
            object.__setattr__(self, "impact", RULE_IMPACTS.get(self.rule, "corruption"))

    @property
    def cost(self) -> Impact:
        """The impact, never None (set from the rule's when not given)."""
        return self.impact or RULE_IMPACTS.get(self.rule, "corruption")

    def __str__(self) -> str:
        where = [
            f"event {self.event}" if self.event is not None else "",
            f"frame {self.frame}" if self.frame is not None else "",
            f"at {self.pointer}" if self.pointer else "",
        ]
        place = ", ".join(part for part in where if part)
        return f"{self.rule} ({place}): {self.message}" if place else f"{self.rule}: {self.message}"
