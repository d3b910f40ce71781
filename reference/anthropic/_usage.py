"""Usage: message_start's object, then each non-blank message_delta key replaces its value.

The counts on message_delta are cumulative totals, so a value is replaced whole and never
added to (AM-USAGE-REPLACE, AM-USAGE-NEVER-SUM). Usage is never estimated (AM-USAGE-ABSENT).
"""

from __future__ import annotations

from collections.abc import Callable

from .._json import JSON, JSONObject, copy_json, non_blank, object_or_none

__all__ = ["Usage"]


def _number(value: JSON) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _object(value: JSON) -> bool:
    return isinstance(value, dict)


def _string(value: JSON) -> bool:
    return non_blank(value) is not None


def _any_but_null(value: JSON) -> bool:
    return value is not None


_NOT_BLANK: dict[str, Callable[[JSON], bool]] = {
    "input_tokens": _number,
    "output_tokens": _number,
    "cache_creation_input_tokens": _number,
    "cache_read_input_tokens": _number,
    "server_tool_use": _object,
    "cache_creation": _object,
    "service_tier": _string,
}
"""AM-USAGE-REPLACE: the known keys' types; a value of another type is blank."""


class Usage:
    """The Message's `usage`, or none at all."""

    __slots__ = ("_usage",)

    def __init__(self) -> None:
        self._usage: JSONObject | None = None

    def start(self, usage: JSON) -> None:
        """AM-USAGE-BASE: a copy of message_start.message.usage, every key kept."""
        base = object_or_none(usage)
        if base is not None:
            self._usage = dict(base)  # shallow: values are copied on output

    def replace(self, usage: JSON) -> None:
        """AM-USAGE-REPLACE: each non-blank key of message_delta.usage replaces, whole."""
        update = object_or_none(usage)
        if update is None:
            return
        for key, value in update.items():
            if _NOT_BLANK.get(key, _any_but_null)(value):
                if self._usage is None:
                    self._usage = {}  # AM-USAGE-ABSENT: built from message_delta alone
                self._usage[key] = value  # AM-USAGE-NEVER-SUM: replaced, never added

    def output(self) -> JSONObject | None:
        """The usage object as a new value, or None when no event reported one."""
        usage: JSONObject | None = copy_json(self._usage)  # a copy of None is None
        return usage
