"""Where an Anthropic stream gives a rule nothing to decide: `undecided_at` names the
owners of a pointer whose value the stream shows they do not decide (AM-USAGE-BASE at a
count message_delta re-reported; a tool block's input or identity), so a difference there
is not evidence against them (`Dialect.undecided_at`).

Plain JSON in; nothing is mutated.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from refold.reference import JSON, RefoldError
from refold.reference.anthropic import NoMessageError, differences, fold
from refold.verdicts.undoing import folded_or_none

from ._event_departures import starts_message

__all__ = ["undecided_at"]

_message = folded_or_none(fold, NoMessageError)
"""The reference's fold of a stream; None when no event started a Message."""

_USAGE_KEY = re.compile(r"/usage/([^/]+)(/.*)?")


_UNKNOWN: object = object()
"""No received value given (the ablation asks about a pointer alone)."""


def undecided_at(stream: list[JSON], pointer: str, received: object = _UNKNOWN) -> frozenset[str]:
    """The rules owning `pointer` that `stream` shows do not decide the value there (and
    the value `received` there, when given: a difference's): at a usage count
    (`_undecided_usage`), and in a tool block's input or identity (`_undecided_tool`)."""
    if pointer == "/usage":
        return _undecided_usage_object(stream, received)
    if _USAGE_KEY.fullmatch(pointer):
        return _undecided_usage(stream, pointer, received)
    if _TOOL_KEY.fullmatch(pointer):
        return _undecided_tool(stream, pointer)
    return frozenset()


_TOOL_KEY = re.compile(r"/content/(\d+)/(input|id|name)(/.*)?")
_TOOL_BLOCKS = frozenset({"tool_use", "server_tool_use"})


def _undecided_tool(stream: list[JSON], pointer: str) -> frozenset[str]:
    """At `/content/N/input`, `/id` or `/name`, of the reference's block N:

    * AM-TOOL-INVALID, unless its input is the raw joined string (joined input that is
      not complete input: only then does the rule say anything);
    * AM-SERVER-TOOL, unless it is a `server_tool_use` block;
    * both, when the reference holds no tool block there."""
    found = _TOOL_KEY.fullmatch(pointer)
    assert found is not None  # undecided_at matched it
    try:
        message = _message(stream)
    except RefoldError:
        return frozenset()
    content = message.get("content") if message is not None else None
    number = int(found.group(1))
    block = content[number] if isinstance(content, list) and number < len(content) else None
    kind = block.get("type") if isinstance(block, dict) else None
    undecided: set[str] = set()
    if (
        kind not in _TOOL_BLOCKS
        or not isinstance(block, dict)
        or not isinstance(block.get("input"), str)
    ):
        undecided.add("AM-TOOL-INVALID")
    if kind != "server_tool_use":
        undecided.add("AM-SERVER-TOOL")
    return frozenset(undecided)


def _undecided_usage(stream: list[JSON], pointer: str, received: object) -> frozenset[str]:
    """At a usage count (`/usage/KEY`):

    * AM-USAGE-NEVER-SUM, when at most one event reports the key: nothing to add up; or
      when the value `received` there is absent, null or one of the reported values,
      which no adding made (the wrong one is kept: a replacement's or the base's
      failure);
    * AM-USAGE-REPLACE, when no message_delta carries a usage object: nothing replaces
      the key, and no message_delta omits it (an absent key keeps its value, its clause);
    * AM-USAGE-BASE, when message_start's usage does not hold it, or when the reference
      folds the stream with that key removed from it to the same count (a message_delta
      re-reported it: the value is that message_delta's, AM-USAGE-REPLACE; adding the
      start's to it is AM-USAGE-NEVER-SUM's)."""
    found = _USAGE_KEY.fullmatch(pointer)
    first = next((n for n, event in enumerate(stream) if starts_message(event)), None)
    if found is None or first is None:
        return frozenset()
    key = found.group(1).replace("~1", "/").replace("~0", "~")
    reports = [n for n, event in enumerate(stream) if _reports(event, key)]
    undecided: set[str] = set()
    if len(reports) <= 1 or (
        found.group(2) is None
        and received is not _UNKNOWN
        and not _added(received, stream, reports, key)
    ):
        undecided.add("AM-USAGE-NEVER-SUM")
    if not any(_carries_usage(event) for event in stream[first + 1 :]):
        undecided.add("AM-USAGE-REPLACE")
    if first not in reports or not _start_decides(stream, first, key, found.group(1)):
        undecided.add("AM-USAGE-BASE")
    return frozenset(undecided)


def _undecided_usage_object(stream: list[JSON], received: object) -> frozenset[str]:
    """At `/usage` itself (the whole object differs: absent, null or not an object):

    * AM-USAGE-NEVER-SUM, unless the object `received` holds a count none of its key's
      several reports holds (a lost or kept usage object adds nothing up);
    * AM-USAGE-ABSENT, when message_start carried a usage object and nothing was
      estimated (no object received): its clauses are about a stream whose start has
      none;
    * AM-USAGE-REPLACE, when no message_delta carries a usage object (as at a key)."""
    first = next((n for n, event in enumerate(stream) if starts_message(event)), None)
    if first is None or received is _UNKNOWN:
        return frozenset()
    undecided: set[str] = set()
    counts = received.items() if isinstance(received, dict) else ()
    if not any(
        len(reports := [n for n, event in enumerate(stream) if _reports(event, key)]) > 1
        and _added(value, stream, reports, key)
        for key, value in counts
    ):
        undecided.add("AM-USAGE-NEVER-SUM")
    if isinstance(_usage_holder(stream[first]), dict) and not isinstance(received, dict):
        undecided.add("AM-USAGE-ABSENT")
    if not any(_carries_usage(event) for event in stream[first + 1 :]):
        undecided.add("AM-USAGE-REPLACE")
    return frozenset(undecided)


def _usage_holder(event: JSON) -> object:
    """The `usage` member of a message_start's message (None when it has none)."""
    message = event.get("message") if isinstance(event, dict) else None
    return message.get("usage") if isinstance(message, dict) else None


def _reports(event: JSON, key: str) -> bool:
    """Whether `event` (message_start or message_delta) reports usage `key` non-null."""
    if not isinstance(event, dict):
        return False
    holder = event.get("message") if event.get("type") == "message_start" else event
    usage = holder.get("usage") if isinstance(holder, dict) else None
    return (
        event.get("type") in ("message_start", "message_delta")
        and isinstance(usage, dict)
        and usage.get(key) is not None
    )


def _added(received: object, stream: list[JSON], reports: list[int], key: str) -> bool:
    """Whether a count `received` for usage `key` may have been made by adding: a number
    none of the reports of the key holds."""
    if isinstance(received, bool) or not isinstance(received, int | float):
        return False
    return all(_usage_of(stream[n]).get(key) != received for n in reports)


def _usage_of(event: JSON) -> dict[str, Any]:
    """The usage object of a message_start or message_delta ({} when it has none)."""
    holder = (
        event.get("message")
        if isinstance(event, dict) and event.get("type") == "message_start"
        else event
    )
    usage = holder.get("usage") if isinstance(holder, dict) else None
    return usage if isinstance(usage, dict) else {}


def _carries_usage(event: JSON) -> bool:
    """Whether `event` is a message_delta with a usage object."""
    return (
        isinstance(event, dict)
        and event.get("type") == "message_delta"
        and isinstance(event.get("usage"), dict)
    )


def _start_decides(stream: list[JSON], first: int, key: str, escaped: str) -> bool:
    """Whether message_start's value of usage `key` shows in the fold: removing it from
    the start changes the count (else a message_delta decides it)."""
    without = copy.deepcopy(stream)
    usage = without[first]["message"].get("usage")
    if not isinstance(usage, dict) or key not in usage:
        return False
    del usage[key]
    try:
        before, after = _message(stream), _message(without)
    except RefoldError:
        return True
    count = f"/usage/{escaped}"
    return (
        before is None
        or after is None
        or any(
            d.pointer in ("/usage", count) or d.pointer.startswith(f"{count}/")
            for d in differences(before, after)
        )
    )
