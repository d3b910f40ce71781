"""Function-call arguments: joined raw, never parsed (RS-ARGS-JOIN, RS-ARGS-RAW).

The item's `call_id`, `id`, `name` and every other key are the announced item's, kept as
sent (RS-CALL-IDS); only `arguments` is streamed. The fragments are kept verbatim in a
list joined on read, so a long argument string streamed one character per event costs
linear time.
"""

from __future__ import annotations

from .._joined import Joined
from .._json import JSON

__all__ = ["Arguments"]


class Arguments:
    """A function call's arguments: the announced prefix, the deltas, the done value."""

    __slots__ = ("_closed", "_text")

    def __init__(self, announced: JSON) -> None:
        # RS-ARGS-JOIN: the deltas join onto the arguments of output_item.added
        self._text = Joined(announced)
        self._closed = False

    def reannounce(self, announced: JSON) -> None:
        """RS-READD: the arguments streamed are kept; a re-add fills them only while empty."""
        if self._text.empty and not self._closed:
            self._text = Joined(announced)

    def append(self, fragment: JSON) -> None:
        """RS-ARGS-JOIN: verbatim, in arrival order, until the done event."""
        if not self._closed:
            self._text.append(fragment)

    def done(self, arguments: JSON) -> None:
        """RS-DONE-REPLACES: function_call_arguments.done sets the arguments."""
        if isinstance(arguments, str):  # RS-WRONG-TYPE: anything else is absent
            self._text = Joined(arguments)
            self._closed = True

    @property
    def text(self) -> str:
        """RS-ARGS-RAW: the joined string as sent, never parsed or defaulted ("" stays "")."""
        return self._text.text
