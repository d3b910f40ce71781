"""One broken rule of the events contract, as the checker reports it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Violation"]


@dataclass(frozen=True)
class Violation:
    """A rule an adapter's output breaks, and where.

    `event` is the 0-based index of the event in the adapter's event list, `frame` the
    0-based index of the input frame, `pointer` a JSON pointer (RFC 6901) into that event,
    or into the persisted value for PERSIST-* rules; each is None when the violation has
    no such place. `message` says what was received and what was expected.
    """

    rule: str
    message: str
    event: int | None = None
    frame: int | None = None
    pointer: str | None = None

    def __str__(self) -> str:
        where = [f"event {self.event}" if self.event is not None else "",
                 f"frame {self.frame}" if self.frame is not None else "",
                 f"at {self.pointer}" if self.pointer else ""]
        place = ", ".join(part for part in where if part)
        return f"{self.rule} ({place}): {self.message}" if place else f"{self.rule}: {self.message}"
