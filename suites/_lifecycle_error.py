"""The lifecycle concern of a dialect whose error item is terminal (`TerminalErrorMachine`):
`error` reads the first error item's object, the fold is not finished, and the result read
just before the error item is the one read after it, whatever comes later.

Written once for the dialects that have the concern; each subclass names its rule and the
words of its messages, and says what reading after an error before the fold was readable
must do.
"""

from __future__ import annotations

from typing import ClassVar

from refold.reference import JSONObject

from ._lifecycle import LifecycleMachine

__all__ = ["TerminalErrorMachine"]


class TerminalErrorMachine(LifecycleMachine):
    """An error item is terminal. The dialect's model has `error` (the first error item's
    object, `{}` when it is not an object; None before one), and a fold over before any
    error is another concern's business."""

    error_item: ClassVar[str] = ""
    """The error item, as the messages name it."""
    changed: ClassVar[str] = ""
    """The message's start when the result read changed with the error item or after it."""

    def __init__(self) -> None:
        super().__init__()
        self.last: JSONObject | None = None  # the result before the latest item
        self.partial: JSONObject | None = None  # the result when the error arrived

    def before_add(self, item: JSONObject) -> None:
        if self.stream.readable and not self.stream.over:
            self.last = self.target.response()

    def after_add(self, item: JSONObject) -> None:
        if self.stream.error is not None and not self.over_before:
            self.partial = self.last

    def verify(self) -> None:
        if self.stream.over and self.stream.error is None:
            return  # the fold ended before any error: another concern's business
        expected, received = self.stream.error, self.target.error
        if (expected is None) != (received is None) or (
            expected is not None and self.check.differences(expected, received)
        ):
            raise self.failure(
                f"error reads {received!r}, expected {expected!r}",
                expected=expected,
                received=received,
            )
        if expected is None:
            return
        if self.target.finished:
            raise self.failure(
                f"the fold reports finished after an {self.error_item}",
                expected=False,
                received=True,
            )
        if self.partial is None:
            self.verify_unreadable()
            return
        response = self.target.response()
        if self.check.differences(self.partial, response):
            raise self.failure(
                f"{self.changed}: {self.described(self.partial, response)}",
                expected=self.partial,
                received=response,
            )

    def verify_unreadable(self) -> None:
        """Check a read after an error that came before the fold was readable; by default
        nothing is checked (the result read is the empty one)."""
