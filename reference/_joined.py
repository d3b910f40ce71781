"""Strings joined verbatim, in arrival order, in linear time: every dialect's text,
thinking and argument fragments (a fragment that is not a string adds nothing: each
dialect's wrong-type rule)."""

from __future__ import annotations

from ._json import JSON

__all__ = ["Joined"]


class Joined:
    """Strings joined verbatim, in arrival order, in linear time."""

    __slots__ = ("_parts",)

    def __init__(self, first: JSON) -> None:
        self._parts = [first] if isinstance(first, str) else []  # not a string: ""

    def append(self, part: JSON) -> None:
        """Add a fragment (a value that is not a string is none)."""
        if isinstance(part, str):
            self._parts.append(part)

    @property
    def text(self) -> str:
        """The joined string."""
        if len(self._parts) != 1:
            self._parts[:] = ["".join(self._parts)]  # later reads join only what is new
        return self._parts[0]

    @property
    def empty(self) -> bool:
        """True while nothing but empty strings was joined."""
        return not any(self._parts)
